package advise

import (
	"slices"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
)

// Two non-leaders own as many tasks: the advisor's crash worker is the
// first by name, whatever order the broker lists the members in (before,
// the first in group order, so two reads of one cluster could differ).
func TestAdviseCrashWorkerTieBrokenByName(t *testing.T) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 3, Tasks: 2})
	names := map[string]string{"w1": "leader:8083", "w2": "zeta:8083", "w3": "alpha:8083"}
	for i := range st.Workers {
		st.Workers[i].Aliases = []string{names[st.Workers[i].ID]}
	}
	if len(st.Workers[1].Owned.Tasks) != len(st.Workers[2].Owned.Tasks) {
		t.Fatalf("no tie: %d and %d tasks", len(st.Workers[1].Owned.Tasks), len(st.Workers[2].Owned.Tasks))
	}
	swapped := st
	swapped.Workers = []cluster.WorkerState{st.Workers[0], st.Workers[2], st.Workers[1]}
	for _, s := range []cluster.State{st, swapped} {
		if got := crashVictim(s); got != "w3" {
			t.Errorf("group order %v: crash worker %s, want w3 (alpha:8083)", []string{s.Workers[1].ID, s.Workers[2].ID}, got)
		}
	}
}

// The per-delay table headlines leader-last rolls: leader-first figures
// rest on a guess of the next leader. A leader-first roll is shown only
// for a delay swept with no other order.
func TestCheapestPerDelaySkipsUncertainFigures(t *testing.T) {
	c := func(delay int64, order string, taskMs int64) Candidate {
		return Candidate{Setting: Setting{DelayMs: delay, Order: order}, Roll: RollCost{TaskMsNotRunning: taskMs}}
	}
	r := &AdviseResult{Candidates: []Candidate{
		c(0, OrderLeaderLast, 500), c(0, OrderLeaderFirst, 100),
		c(60000, OrderLeaderFirst, 100), c(60000, OrderLeaderLast, 900), c(60000, OrderLeaderLast, 700),
		c(120000, OrderLeaderFirst, 100),
	}}
	if got := r.CheapestPerDelay(); !slices.Equal(got, []int{0, 4, 5}) {
		t.Errorf("CheapestPerDelay = %v, want [0 4 5]", got)
	}
}
