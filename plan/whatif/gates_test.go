package whatif

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

func i64(n int64) *int64 { return &n }
func intp(n int) *int    { return &n }

// A plan can gate a runbook: each gate compares the plan's figure with the
// limit, a breach names the branch and the figure, and the JSON carries
// the gates with their outcome. The classic rolling restart (5-minute
// delay, 90 s restarts, leader last) keeps a task down for 5m+ and moves 63
// tasks.
func TestPlanGates(t *testing.T) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
	res, err := RollingRestartPlan(st, timeline.Options{MaxDelayMs: 300000, RoundTimeMs: timeline.DefaultRoundTimeMs, SessionTimeoutMs: 10000, KafkaVersion: kafkaversion.New(3, 9, 0)}, 90000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Branches[0].Cooperative.Summary
	if br := res.ApplyGates(Gates{MaxOutageMs: i64(s.LongestTaskOutageMs), MaxTaskSeconds: i64(s.TaskMsNotRunning / 1000), MaxMoves: intp(s.TasksMoved), MaxRounds: intp(s.Rounds)}); len(br) != 0 || !res.Gates.Passed {
		t.Errorf("limits equal to the figures broke: %+v", br)
	}
	br := res.ApplyGates(Gates{MaxOutageMs: i64(180000), MaxMoves: intp(20)})
	if len(br) != 2 || res.Gates.Passed {
		t.Fatalf("breaches %+v", br)
	}
	if br[0].Gate != GateMaxOutage || br[0].Figure != s.LongestTaskOutageMs ||
		!strings.HasPrefix(br[0].Message, "rolling restart (sessioned): longest task outage 5m") || !strings.HasSuffix(br[0].Message, "exceeds --max-outage 3m") {
		t.Errorf("outage breach %+v", br[0])
	}
	if br[1].Gate != GateMaxMoves || br[1].Message != "rolling restart (sessioned): tasks moved to another machine 63 exceeds --max-moves 20" {
		t.Errorf("moves breach %+v", br[1])
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"gates":{"max_outage_ms":180000,"max_task_seconds":null,"max_moves":20,"max_rounds":null,"passed":false`) {
		t.Errorf("JSON gates: %s", b[strings.Index(string(b), `"gates"`):])
	}
	// Work that never runs again breaks --max-outage whatever its limit.
	res.Branches[0].Cooperative.Summary.NotRunningAtEnd = []string{"conn-00-0"}
	if br := res.ApplyGates(Gates{MaxOutageMs: i64(1 << 40)}); len(br) != 1 || br[0].Figure != -1 {
		t.Errorf("never running again: %+v", br)
	}
}
