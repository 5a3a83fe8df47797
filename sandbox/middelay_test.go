package sandbox

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// A plan made from a snapshot taken while the leader holds a departed
// worker's work back (in the middle of the scheduled delay) must continue
// from that state, as the real leader does: raising a connector's tasks
// then assigns only the new tasks at once, the held work stays down until
// the deadline, and the end ownership is the real one, piece by piece.
func TestPlanFromMidDelaySnapshot(t *testing.T) {
	t.Parallel() // owns its cluster
	for _, stop := range []whatif.Stop{whatif.StopClean, whatif.StopCrash} {
		t.Run(string(stop), func(t *testing.T) {
			t.Parallel()
			testPlanFromMidDelay(t, stop, false)
		})
	}
	// The connector raised is one held back for the departed worker: no
	// worker runs it, so its new tasks are written only when it is dealt
	// again after the delay, by the worker that starts it (taskwrites.go).
	t.Run("held connector", func(t *testing.T) {
		t.Parallel()
		testPlanFromMidDelay(t, whatif.StopCrash, true)
	})
}

func testPlanFromMidDelay(t *testing.T, stop whatif.Stop, held bool) {
	const maxDelay = 4 * time.Second
	c := startTest(t, func(cfg *Config) { cfg.ScheduledRebalanceMaxDelay = maxDelay })
	cfg := c.Config()
	var err error
	addConnectors(t, c,
		ConnectorSpec{Name: "orders", Tasks: 5},
		ConnectorSpec{Name: "payments", Tasks: 3},
		ConnectorSpec{Name: "clicks", Tasks: 4},
		ConnectorSpec{Name: "users", Tasks: 1})
	addWorkers(t, c, "", "", "")
	waitStable(t, c)
	leader := readLive(t, c).members.Leader
	if leader == nil {
		t.Fatal("no leader named in the assignments")
	}
	gone := nonLeader(t, c, *leader)
	goneID := memberOf(t, c, gone)
	if stop == whatif.StopClean {
		err = c.StopWorker(context.Background(), gone)
	} else {
		err = c.KillWorker(gone)
	}
	if err != nil {
		t.Fatal(err)
	}

	// The snapshot: the group is Stable again, every member was told a delay.
	v := readMidDelay(t, c, goneID)
	state, err := cluster.StateFromDataset(views.Decode(v.ds, store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	p := state.Pending
	if p == nil || p.DelayMs <= 0 || len(p.Lost.Tasks) == 0 {
		t.Fatalf("pending state not reconstructed from the mid-delay snapshot: %+v", p)
	}
	if stop == whatif.StopClean && (p.DepartedAtMs == 0 || !slices.Contains(p.Departed, gone+":8083")) {
		t.Errorf("clean stop of %s: departure not seen in the status topic: departed %v at %d", gone, p.Departed, p.DepartedAtMs)
	}

	// The event: a connector's tasks are raised while the work is held:
	// one a worker runs (its task configs are written at once), or one held
	// back for the departed worker (written once it runs again).
	conn := ""
	for _, name := range []string{"orders", "clicks", "payments", "users"} {
		if slices.Contains(p.Lost.Connectors, name) == held {
			conn = name
			break
		}
	}
	if conn == "" {
		t.Skipf("no connector with held=%v on the departed worker (it ran %v)", held, p.Lost.Connectors)
	}
	before := tasksOf(c, conn)
	if err := c.ReconfigureConnector(context.Background(), conn, 8); err != nil {
		t.Fatal(err)
	}
	if got := tasksOf(c, conn); held && got != before {
		t.Errorf("held connector %s: %d tasks committed while it runs on no worker, want its old %d until it runs again", conn, got, before)
	}
	res, err := whatif.ConnectorPlan(state, timeline.Options{
		MaxDelayMs: maxDelay.Milliseconds(), SessionTimeoutMs: cfg.SessionTimeout.Milliseconds(), RoundTimeMs: 50,
	}, whatif.ConnectorChange{Set: map[string]int{conn: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assumptions.Pending == nil || res.Assumptions.Pending.DelayEndsAfterMs == nil {
		t.Fatalf("plan assumptions do not say what was pending: %+v", res.Assumptions.Pending)
	}
	tl := res.Branches[0].Cooperative
	ends := *res.Assumptions.Pending.DelayEndsAfterMs

	// The held pieces stay down until the deadline in the plan, as the
	// leader keeps them back.
	lost := map[string]bool{}
	for _, k := range p.Lost.Tasks {
		lost[k.String()] = true
	}
	for _, o := range tl.Outages {
		if lost[o.Piece] && (len(o.Intervals) == 0 || o.Intervals[0].ToMs < ends) {
			t.Errorf("held piece %s runs again at %v, before the delay ends at %d ms", o.Piece, o.Intervals, ends)
		}
	}
	if len(tl.Rounds) == 0 || len(tl.Rounds[0].Workers) == 0 {
		t.Fatalf("plan has no rounds: %+v", tl)
	}
	for _, w := range tl.Rounds[0].Workers {
		for _, a := range w.AssignedTasks {
			if lost[a] {
				t.Errorf("plan's first round gives held piece %s to %s at once", a, w.Worker)
			}
		}
	}

	waitStable(t, c)
	live := ownedByMember(c)
	predicted := whatif.FinalPieces(state, tl)
	if !equalOwnership(live, predicted) {
		t.Errorf("live workers own\n  %v\nthe plan from the mid-delay snapshot predicted\n  %v", live, predicted)
		for _, r := range c.Rounds() {
			t.Log(r.Line())
		}
	}
	taken := time.UnixMilli(v.ds.TakenAtMs)
	rounds := c.Rounds()
	last := rounds[len(rounds)-1]
	t.Logf("%s: plan: all running after %v ms (delay ends at %d ms, %s); sandbox: last round %v after the snapshot",
		stop, deref64(tl.Summary.AllRunningAfterMs), ends, res.Assumptions.Pending.DelayEndsSource, last.At.Sub(taken).Round(time.Millisecond))
}

// readMidDelay reads the sandbox until the group is Stable without the
// departed member and every member's assignment tells a delay.
func readMidDelay(t *testing.T, c *Cluster, goneID string) liveView {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		v := readLive(t, c)
		ok := v.ds.Group != nil && v.ds.Group.State == "Stable" && len(v.members.Members) > 0
		for _, m := range v.members.Members {
			ok = ok && m.MemberID != goneID && m.Assignment != nil && m.Assignment.DelayMs > 0
		}
		if ok {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the group never settled into the delay")
	return liveView{}
}

// ownedByMember maps member id -> sorted piece names, from the workers.
func ownedByMember(c *Cluster) map[string][]string {
	out := map[string][]string{}
	for _, w := range c.WorkerStates() {
		out[w.MemberID] = pieceNames(w.Owned.Connectors, w.Owned.Tasks)
	}
	return out
}

func deref64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// tasksOf is a connector's committed task count.
func tasksOf(c *Cluster, name string) int {
	for _, ci := range c.Connectors() {
		if ci.Name == name {
			return ci.Tasks
		}
	}
	return -1
}
