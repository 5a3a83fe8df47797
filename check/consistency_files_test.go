package check

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// T12 (and every "differs" finding) names the files behind each value, so
// the table says which workers to change without -o json.
func TestDiffersNamesTheFiles(t *testing.T) {
	var ws []*workerconfig.Config
	for i, d := range []string{"60000", "300000", "300000", "300000", "300000"} {
		ws = append(ws, worker(t, "w"+string(rune('1'+i))+".properties", "scheduled.rebalance.max.delay.ms="+d+"\n"))
	}
	rep, err := Timeouts(TimeoutsInput{Workers: ws})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Rule == "T12" && strings.Contains(f.Subject, "scheduled.rebalance.max.delay.ms") {
			want := "300000 (w2.properties, w3.properties, w4.properties and 1 more) / 60000 (w1.properties)"
			if !strings.Contains(f.Message, want) {
				t.Errorf("T12 message %q lacks %q", f.Message, want)
			}
			return
		}
	}
	t.Fatalf("no T12 on the delay: %v", ruleIDs(rep.Findings))
}
