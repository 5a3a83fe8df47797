package whatif

import (
	"errors"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// A rolling restart's --order lists every worker: one that leaves some out
// is refused, naming them, rather than planning a smaller roll.
func TestRollingRestartOrderNamesEveryWorker(t *testing.T) {
	spec, err := cluster.ParseSynthetic("workers=3,connectors=2")
	if err != nil {
		t.Fatal(err)
	}
	state := cluster.SyntheticState(spec)
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: timeline.DefaultRoundTimeMs, SessionTimeoutMs: timeline.DefaultSessionTimeoutMs}
	_, err = RollingRestartPlan(state, opts, 90000, StopClean, []string{"w1", "w3"})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Name != "Order" || !strings.Contains(err.Error(), "leaves out w2") {
		t.Fatalf("partial order: %v, want an Order error naming w2", err)
	}
	if _, err := RollingRestartPlan(state, opts, 90000, StopClean, []string{"w3", "w1", "w2"}); err != nil {
		t.Errorf("whole order: %v", err)
	}
}
