package whatif

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/scenario"
	"github.com/connectscope/connectscope/plan/timeline"
)

// midDelay runs the real leader (the simulator, with its whole memory) from
// a settled cluster: w2 leaves (held back for maxDelay), an empty worker
// joins when join is set, and the clock moves on by elapsed. It returns the
// simulator and the state a snapshot would show then: what the members own,
// the delay the last assignments told, no memory.
func midDelay(t *testing.T, maxDelay, elapsed int64, join bool) (*assignor.Sim, cluster.State) {
	t.Helper()
	start := synth(t, "workers=3,connectors=4,tasks=3")
	sim, err := assignor.NewSim(assignor.SimConfig{Protocol: "sessioned", MaxDelayMs: maxDelay})
	if err != nil {
		t.Fatal(err)
	}
	sim.SetConnectors(start.Connectors)
	for _, w := range start.Workers {
		if err := sim.Join(w.ID, w.Owned); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := cluster.LeaderMemory(sim, nil, maxDelay)
	sim.SetState(st)
	if err := sim.Leave("w2"); err != nil {
		t.Fatal(err)
	}
	r := sim.Rebalance(false)
	told := r.Workers["w1"].DelayMs
	if join {
		sim.Sleep(elapsed / 2)
		if err := sim.Join("w2.2", assignor.Pieces{}); err != nil {
			t.Fatal(err)
		}
		told = sim.Rebalance(false).Workers["w1"].DelayMs
		sim.Sleep(elapsed - elapsed/2)
	} else {
		sim.Sleep(elapsed)
	}
	snap := cluster.State{Source: "test", Connectors: start.Connectors, Protocol: "sessioned", Leader: "w1"}
	owned := cluster.PieceSet{}
	for _, id := range sim.Members() {
		o := sim.Owned(id)
		snap.Workers = append(snap.Workers, cluster.WorkerState{ID: id, Owned: o})
		for _, k := range cluster.KeysOf(o) {
			owned[k] = true
		}
	}
	var lost []cluster.PieceKey
	for _, k := range cluster.ConfiguredKeys(start.Connectors) {
		if !owned[k] {
			lost = append(lost, k)
		}
	}
	ends := maxDelay - elapsed
	snap.Pending = &cluster.Pending{DelayMs: told, Lost: cluster.PiecesOf(lost), EndsInMs: &ends}
	for _, w := range snap.Workers {
		if len(w.Owned.Connectors)+len(w.Owned.Tasks) == 0 {
			snap.Pending.Candidates = append(snap.Pending.Candidates, w.ID)
		}
	}
	return sim, snap
}

func simPieces(sim *assignor.Sim) map[string][]string {
	out := map[string][]string{}
	for _, id := range sim.Members() {
		c, ts := cluster.PieceNames(cluster.KeysOf(sim.Owned(id)))
		ns := slices.Concat(c, ts)
		slices.Sort(ns)
		out[id] = ns
	}
	return out
}

// A plan from the middle of a delay, then tasks raised, ends where the
// leader with its whole memory ends, and keeps the held work down until the
// deadline (the real cluster of the issue: 42 s and 130 task-s where a plan
// that forgot the pending state said 2 s and 12 task-s). A connector that
// runs writes its new task configs at once; one held back for the departed
// worker runs nowhere, so its tasks change only once it is dealt again.
func TestPlanContinuesFromMidDelay(t *testing.T) {
	for _, join := range []bool{false, true} {
		for _, held := range []bool{false, true} {
			const maxDelay, elapsed = 60000, 20000
			sim, snap := midDelay(t, maxDelay, elapsed, join)
			conn := "conn-00"
			if slices.Contains(snap.Pending.Lost.Connectors, conn) != held {
				conn = "conn-01"
			}
			if slices.Contains(snap.Pending.Lost.Connectors, conn) != held {
				t.Fatalf("no connector with held=%v among conn-00, conn-01 (held: %v)", held, snap.Pending.Lost.Connectors)
			}
			res, err := ConnectorPlan(snap, testOpts(maxDelay), ConnectorChange{Set: map[string]int{conn: 6}})
			if err != nil {
				t.Fatal(err)
			}
			tl := res.Branches[0].Cooperative

			if held {
				r := sim.Rebalance(false) // the config record rebalances; the tasks stay
				sim.Sleep(r.Workers[sim.Members()[0]].DelayMs)
				sim.Settle(0) // the deadline: the connector runs again
			}
			sim.SetConnectors(raised(conn))
			sim.Settle(0)
			if got, want := FinalPieces(snap, tl), simPieces(sim); !maps.EqualFunc(got, want, slices.Equal[[]string]) {
				t.Errorf("join=%v held=%v: plan ends with\n  %v\nthe leader with its memory ends with\n  %v", join, held, got, want)
			}
			ends := int64(maxDelay - elapsed)
			for _, k := range cluster.KeysOf(snap.Pending.Lost) {
				iv := outageOf(tl, timeline.PieceName(k))
				if len(iv) == 0 || iv[0].FromMs != 0 || iv[0].ToMs < ends {
					t.Errorf("join=%v: held piece %s not running %v, want from 0 until at least %d", join, timeline.PieceName(k), iv, ends)
				}
			}
			if held {
				for _, k := range []string{conn + "-3", conn + "-4", conn + "-5"} {
					if iv := outageOf(tl, k); len(iv) == 0 || iv[0].ToMs < ends {
						t.Errorf("held connector's new task %s runs %v, before the connector runs again at %d", k, iv, ends)
					}
				}
			}
			if p := res.Assumptions.Pending; p == nil || p.DelayEndsAfterMs == nil || *p.DelayEndsAfterMs != ends || p.DelayEndsSource != "given" {
				t.Errorf("join=%v: assumptions.pending = %+v", join, p)
			}
			if join && !slices.Contains(res.Assumptions.Pending.Candidates, "w2.2") {
				t.Errorf("candidates %v, want w2.2", res.Assumptions.Pending.Candidates)
			}
		}
	}
}

// raised is the synthesized connectors (3 tasks each) with conn at 6.
func raised(conn string) []assignor.ConnectorSpec {
	var out []assignor.ConnectorSpec
	for _, n := range []string{"conn-00", "conn-01", "conn-02", "conn-03"} {
		tasks := 3
		if n == conn {
			tasks = 6
		}
		out = append(out, assignor.ConnectorSpec{Name: n, Tasks: tasks})
	}
	return out
}

// A snapshot between a revoking round and its follow-up: the plan runs the
// follow-up at 0 s before anything else, with the leader remembering the
// revocation (so a second revoking round backs off, assignor.md §3 step 7).
func TestPendingRevocationRunsFollowUpFirst(t *testing.T) {
	st := synth(t, "workers=2,connectors=2,tasks=2")
	// w1 was told to give up conn-01-1; w3 (empty) waits for it.
	revoked := assignor.Pieces{Tasks: []assignor.TaskID{{Connector: "conn-01", Task: 1}}}
	for i := range st.Workers {
		if st.Workers[i].ID == "w2" {
			st.Workers[i].Owned.Tasks = slices.DeleteFunc(st.Workers[i].Owned.Tasks, func(id assignor.TaskID) bool { return id == revoked.Tasks[0] })
		}
	}
	st.Workers = append(st.Workers, cluster.WorkerState{ID: "w3", Owned: assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}})
	st.Pending = &cluster.Pending{Revoked: revoked}
	res, err := JoinPlan(st, testOpts(300000), []string{"w4"})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[0].Cooperative
	if len(tl.Rounds) == 0 || tl.Rounds[0].TimeMs != 0 || !strings.Contains(tl.Rounds[0].Trigger, "revocations to follow up") {
		t.Fatalf("first round %+v, want the follow-up at 0", tl.Rounds)
	}
	if p := res.Assumptions.Pending; p == nil || !p.RoundPending || !slices.Equal(p.Revoked, []string{"conn-01-1"}) {
		t.Errorf("assumptions.pending = %+v", p)
	}
}

// Nothing pending: the plan says so with a null, and the old start holds.
func TestNoPendingIsNull(t *testing.T) {
	res, err := JoinPlan(synth(t, "workers=2,connectors=2"), testOpts(300000), []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assumptions.Pending != nil {
		t.Errorf("settled cluster: pending %+v, want nil", res.Assumptions.Pending)
	}
}

// A delay told with nothing held back is a revocation backoff: the leader
// waits for it before balancing a joiner, as Kafka 3.4+ does.
func TestPendingBackoffDelaysBalancing(t *testing.T) {
	st := synth(t, "workers=2,connectors=4,tasks=2")
	st.Pending = &cluster.Pending{DelayMs: 1600, Backoff: 2}
	res, err := JoinPlan(st, testOpts(300000), []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[0].Cooperative
	if len(tl.Rounds) < 2 {
		t.Fatalf("rounds %+v", tl.Rounds)
	}
	for _, w := range tl.Rounds[0].Workers {
		if len(w.RevokedTasks)+len(w.RevokedConnectors) > 0 {
			t.Errorf("first round revokes from %s during the backoff: %+v", w.Worker, w)
		}
	}
	if tl.Rounds[0].DelayMs == 0 {
		t.Errorf("first round tells no delay during a backoff")
	}
}

// plan replay --from continues a scenario from a snapshot's state: members
// named by alias, the pending delay held as the leader holds it.
func TestReplayFromMidDelay(t *testing.T) {
	const maxDelay, elapsed = 60000, 20000
	sim, snap := midDelay(t, maxDelay, elapsed, false)
	snap.Workers[1].Aliases = []string{"w3:8083"}
	sc, err := scenario.ParseScenarioFrom([]byte(`{"scenario": 1, "max_delay_ms": 60000, "steps": [
		{"connectors": {"conn-00": 3, "conn-01": 6, "conn-02": 3, "conn-03": 3}},
		{"settle": {}}]}`), snap)
	if err != nil {
		t.Fatal(err)
	}
	res, err := scenario.Replay(sc, scenario.ReplayOptions{From: &snap})
	if err != nil {
		t.Fatal(err)
	}
	sim.SetConnectors(raised("conn-01"))
	sim.Settle(0)
	want := simPieces(sim)
	got := map[string][]string{}
	for w, o := range res.Final {
		c, ts := cluster.PieceNames(cluster.KeysOf(assignor.Pieces{Connectors: o.Connectors, Tasks: o.Tasks}))
		ns := slices.Concat(c, ts)
		slices.Sort(ns)
		got[w] = ns
	}
	if !maps.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("replay from the snapshot ends with\n  %v\nthe leader with its memory\n  %v", got, want)
	}
	if n := len(res.Rounds); n != 2 || res.Rounds[0].TimeMs != 0 || res.Rounds[1].TimeMs != maxDelay-elapsed {
		t.Errorf("rounds %+v, want the change at 0 and the deadline at %d", res.Rounds, maxDelay-elapsed)
	}
	// Leaving by alias works from the snapshot's members.
	sc, err = scenario.ParseScenarioFrom([]byte(`{"scenario": 1, "steps": [{"leave": ["w3:8083"]}, {"rebalance": {}}]}`), snap)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = scenario.Replay(sc, scenario.ReplayOptions{From: &snap}); err != nil || len(res.Final) != 1 {
		t.Fatalf("leave by alias: %v, final %v", err, res)
	}
	if _, err := scenario.ParseScenario([]byte(`{"scenario": 1, "steps": [{"leave": ["w3"]}]}`)); err == nil {
		t.Error("without --from, leaving a worker that never joined is accepted")
	}
}

// A plan whose time 0 is an event after the snapshot (ZeroAtMs) counts the
// delay from the read: the deadline, and the held work's return, come that
// much earlier than in the plan from the read itself.
func TestMidDelayPlanFromALaterTimeZero(t *testing.T) {
	const maxDelay, elapsed, read, later = 60000, 20000, 1_000_000, 5000
	_, snap := midDelay(t, maxDelay, elapsed, false)
	snap.Pending.EndsInMs = nil
	snap.Pending.TakenAtMs, snap.Pending.DepartedAtMs = read, read-elapsed
	held := timeline.PieceName(cluster.KeysOf(snap.Pending.Lost)[0])
	ends := map[int64]int64{}
	back := map[int64]int64{}
	for _, zero := range []int64{0, read + later} {
		opts := testOpts(maxDelay)
		opts.ZeroAtMs = zero
		res, err := ConnectorPlan(snap, opts, ConnectorChange{Set: map[string]int{"conn-00": 4}})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Assumptions.Pending
		if p == nil || p.DelayEndsAfterMs == nil {
			t.Fatalf("time 0 at %d: no pending delay in %+v", zero, p)
		}
		ends[zero] = *p.DelayEndsAfterMs
		iv := outageOf(res.Branches[0].Cooperative, held)
		if len(iv) == 0 {
			t.Fatalf("time 0 at %d: held piece %s never down", zero, held)
		}
		back[zero] = iv[len(iv)-1].ToMs
	}
	if ends[0] != maxDelay-elapsed || ends[read+later] != maxDelay-elapsed-later {
		t.Errorf("delay ends after %v, want %d from the read and %d from 5 s later", ends, maxDelay-elapsed, maxDelay-elapsed-later)
	}
	if back[0]-back[read+later] != later {
		t.Errorf("held piece %s back at %v: want the later time 0's %d ms earlier", held, back, later)
	}
}
