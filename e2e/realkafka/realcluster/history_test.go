//go:build e2e

package realcluster

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// historyDelayMs is the history cluster's scheduled.rebalance.max.delay.ms:
// short, so a stopped worker's work is dealt again soon.
const historyDelayMs = 10000

// historyEvent is `inspect rebalances -o json`'s last event, as far as
// these tests read it.
type historyEvent struct {
	LastEvent *struct {
		Kind             string         `json:"kind"`
		Worker           string         `json:"worker"`
		ElsewhereAfterMs *int64         `json:"elsewhere_after_ms"`
		Real             map[string]any `json:"real"`
		Predicted        map[string]any `json:"predicted"`
		Plan             string         `json:"plan"`
		Notes            []string       `json:"notes"`
	} `json:"last_event"`
}

// A real 4.x cluster: one worker stops cleanly, then another is killed;
// after each, a snapshot's `inspect rebalances` finds that worker's event,
// of the right kind, and its plan stops the same pieces as the workers'
// records show. Times are logged, not asserted (a loaded machine moves them).
func TestHistoryLastEventAgainstPlan(t *testing.T) {
	c := newCluster(t, realkafka.Newest4x, realkafka.Newest4x, 3, map[string]string{"scheduled.rebalance.max.delay.ms": fmt.Sprint(historyDelayMs)})
	c.standardConnectors()
	before := c.settle(3*time.Minute, 3*time.Second, nil).owned()
	pieces := 0
	for _, ps := range before {
		pieces += len(ps)
	}
	// gone waits for the worker to leave the group and every piece to run
	// on the others (after the delay).
	gone := func(id string) func(ownership) error {
		return func(o ownership) error {
			n := 0
			for _, ps := range o {
				n += len(ps)
			}
			if _, ok := o[id]; ok || n != pieces {
				return fmt.Errorf("%s still a member or %d of %d pieces assigned", id, n, pieces)
			}
			return nil
		}
	}
	check := func(kind string, w *realkafka.Worker) {
		t.Helper()
		id := workerID(w.URL())
		c.settle(3*time.Minute, 3*time.Second, gone(id))
		snap := c.snapshot()
		var got historyEvent
		stdout, stderr, code := run("inspect", "rebalances", "--from", snap, "--max-delay", fmt.Sprint(historyDelayMs), "--session-timeout", fmt.Sprint(sessionTimeoutMs), "--heartbeat-interval", fmt.Sprint(heartbeatMs), "-o", "json")
		if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
			t.Fatalf("inspect rebalances: exit %d, %v\n%s", code, err, stderr)
		}
		ev := got.LastEvent
		if ev == nil || ev.Kind != kind || ev.Worker != id || ev.Predicted == nil {
			t.Fatalf("last event %+v, want %s's %s with a plan", ev, id, kind)
		}
		elsewhere := "-"
		if ev.ElsewhereAfterMs != nil {
			elsewhere = fmt.Sprint(*ev.ElsewhereAfterMs)
		}
		t.Logf("%s: real %v, plan %v, elsewhere after %s ms (notes %v)", ev.Plan, ev.Real, ev.Predicted, elsewhere, ev.Notes)
		for _, k := range []string{"connectors_stopped", "tasks_stopped"} {
			if ev.Real[k] != ev.Predicted[k] {
				t.Errorf("%s %s: real %v, plan %v", kind, k, ev.Real[k], ev.Predicted[k])
			}
		}
	}
	leader, w := c.leaderAndOther()
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	check("stop", w)
	var other *realkafka.Worker
	for _, x := range c.workers {
		if x != leader && x != w {
			other = x
		}
	}
	if other == nil {
		t.Fatal("no third worker")
	}
	if err := other.Kill(); err != nil {
		t.Fatal(err)
	}
	check("crash", other)
}
