package sandbox

import (
	"context"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// The history's last event, read from what the workers wrote: a clean stop
// whose work waited out the delay, measured from the status records and
// set beside a plan from the state before it, which stops the same pieces.
func TestHistoryLastEventBesidePlan(t *testing.T) {
	t.Parallel() // owns its cluster
	lastEventBesidePlan(t, history.EventStop)
}

// A crash writes nothing: the last event is found from the crashed worker's
// pieces running elsewhere, and planned as `plan leave --stop crash`.
func TestHistoryLastEventCrashBesidePlan(t *testing.T) {
	t.Parallel() // owns its cluster
	lastEventBesidePlan(t, history.EventCrash)
}

func lastEventBesidePlan(t *testing.T, kind string) {
	c := agreementCluster(t, "")
	_, leader := snapshotSim(t, c)
	name := nonLeader(t, c, leader)
	stop := func() error { return c.StopWorker(context.Background(), name) }
	if kind == history.EventCrash {
		stop = func() error { return c.KillWorker(name) }
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	waitStable(t, c)
	v := readLive(t, c)
	d := views.Of(v.ds)
	res := history.FromRecords(v.ds.Topics.Status, d.StatusRecords())
	ev := res.LastEvent
	if ev == nil || ev.Kind != kind || ev.Worker != name+":8083" {
		t.Fatalf("last event %+v, want %s's %s", ev, name, kind)
	}
	cfg := c.Config()
	opts := timeline.Options{MaxDelayMs: cfg.ScheduledRebalanceMaxDelay.Milliseconds(), SessionTimeoutMs: cfg.SessionTimeout.Milliseconds(), RoundTimeMs: 20}
	if err := whatif.PredictLast(d, ev, opts); err != nil {
		t.Fatal(err)
	}
	if ev.Predicted == nil || ev.Difference == nil || !strings.HasSuffix(ev.Plan, "--stop "+map[string]string{history.EventStop: "clean", history.EventCrash: "crash"}[kind]) {
		t.Fatalf("plan %q: %+v", ev.Plan, ev.Notes)
	}
	if ev.Real.TasksStopped == 0 || ev.Predicted.TasksStopped != ev.Real.TasksStopped || ev.Predicted.ConnectorsStopped != ev.Real.ConnectorsStopped {
		t.Errorf("pieces stopped: real %+v, plan %+v", ev.Real, *ev.Predicted)
	}
	// Both wait out the delay: the plan holds the stopped work for it (its
	// leader, the group's, kept the memory), and so did the workers.
	if ev.Predicted.TaskMsNotRunning < opts.MaxDelayMs {
		t.Errorf("plan: %d task-ms not running, want the work held for the %d ms delay", ev.Predicted.TaskMsNotRunning, opts.MaxDelayMs)
	}
	if r := ev.Real.AllRunningAfterMs; r == nil || *r < opts.MaxDelayMs {
		t.Errorf("real: all running again after %v, want at least the %d ms delay", r, opts.MaxDelayMs)
	}
	t.Logf("%s: real %+v, plan %+v, difference %+v", ev.Plan, ev.Real, *ev.Predicted, *ev.Difference)
}
