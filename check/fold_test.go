package check

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// Thirty workers on one setting: each per-file rule fires once for all of
// them (before, D3 and D5 gave 30 rows each, and so did the sink-consumer
// rules); a file that differs keeps its own finding.
func TestIdenticalFindingsFolded(t *testing.T) {
	var ws []*workerconfig.Config
	for i := 1; i <= 30; i++ {
		ws = append(ws, workerFile(t, fmt.Sprintf("w%02d.properties", i), "consumer.session.timeout.ms=10000\nconsumer.heartbeat.interval.ms=10000\n"))
	}
	ws = append(ws, workerFile(t, "odd.properties", "scheduled.rebalance.max.delay.ms=60000\n"))
	rep, err := Timeouts(TimeoutsInput{Workers: ws})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, f := range rep.Findings {
		count[f.Rule]++
		if f.Rule == "T5" && (f.Subject != "30 worker files (sink consumers)" || len(f.Values["worker_files"].([]string)) != 30) {
			t.Errorf("T5 subject %q, values %v", f.Subject, f.Values)
		}
		if f.Rule == "D3" && f.Subject != "30 worker files" && f.Subject != "odd.properties" {
			t.Errorf("D3 subject %q", f.Subject)
		}
	}
	if count["D3"] != 2 || count["D5"] != 2 || count["T5"] != 1 {
		t.Errorf("findings per rule %v, want D3 and D5 twice (30 files, odd), T5 once", count)
	}
}
