package whatif

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/scenario"
	"github.com/connectscope/connectscope/plan/timeline"
)

// A plan's default table is its summary: one block per branch, cooperative
// beside eager, each worker's final count; the rounds only with -o wide,
// the time model's rules only with --explain (Explain).
func TestPlanTablesSummaryFirst(t *testing.T) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 6, Tasks: 2})
	res, err := JoinPlan(st, timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}, []string{"w4"})
	if err != nil {
		t.Fatal(err)
	}
	write := func(output string) string {
		var buf bytes.Buffer
		if err := format.Write(&buf, res, format.Options{Output: output}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	out := write("")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "w4 joins: summary") || !strings.Contains(lines[1], "SESSIONED") || !strings.Contains(lines[1], "EAGER") {
		t.Errorf("the plan does not start with its summary:\n%s", out)
	}
	if len(lines) > 25 {
		t.Errorf("one event takes %d lines by default, want at most 25:\n%s", len(lines), out)
	}
	for _, w := range []string{"final w1", "final w2", "final w3", "final w4"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q row:\n%s", w, out)
		}
	}
	if strings.Contains(out, "\nmodel ") || strings.Contains(out, "rounds (connectors/tasks)") {
		t.Errorf("model rules or rounds in the default table:\n%s", out)
	}
	wide := write("wide")
	if !strings.HasPrefix(wide, "w4 joins: summary") || !strings.Contains(wide, "w4 joins (sessioned): rounds") || strings.Contains(wide, "\nmodel ") {
		t.Errorf("-o wide: want the summary, then the rounds, no model rules:\n%s", wide)
	}
	res.Explain = true
	if explained := write(""); !strings.Contains(explained, "\nmodel ") || strings.Contains(explained, "rounds (connectors/tasks)") {
		t.Errorf("--explain: want the model's rules, not the rounds:\n%s", explained)
	}
}

// plan replay and the what-if plans name the same things alike in their
// round tables.
func TestRoundTablesShareColumnNames(t *testing.T) {
	sc, err := scenario.ParseScenario([]byte(`{"scenario": 1, "name": "join", "steps": [
	  {"connectors": {"c1": 4}}, {"join": ["w1"]}, {"rebalance": {}}, {"join": ["w2"]}, {"settle": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	replay, err := scenario.Replay(sc, scenario.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1, Connectors: 1, Tasks: 4})
	whatif, err := JoinPlan(st, timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}, []string{"w2"})
	if err != nil {
		t.Fatal(err)
	}
	var rounds []string
	for _, tb := range whatif.Tables() {
		if strings.Contains(tb.Title, "rounds") {
			rounds = tb.Header
		}
	}
	for _, name := range []string{"WORKER", "REVOKED C/T", "ASSIGNED C/T", "DELAY", "OWNS C/T", "REVOKED PIECES", "ASSIGNED PIECES"} {
		if !slices.Contains(replay.Tables()[0].Header, name) || !slices.Contains(rounds, name) {
			t.Errorf("%q: replay's rounds %v, the what-if plans' %v", name, replay.Tables()[0].Header, rounds)
		}
	}
}
