package whatif

import (
	"maps"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// TestStateAfterFollowsTheRounds holds --state-after to the full plan: the
// holdings after round k are the start with the revoked pieces of rounds 1
// to k taken off and the assigned ones added, as the full form's rows list
// them, and the counts are the rows' own; past the last round, the state
// is the final one. Under both protocols, for plans made as a table makes
// them (eager rounds dealt as places).
func TestStateAfterFollowsTheRounds(t *testing.T) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 5, Connectors: 8, Tasks: 2, Skew: 0.3})
	full, err := RollingRestartPlan(st, testOpts(60000), 90000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range []*timeline.Timeline{full.Branches[0].Cooperative, full.Branches[0].Eager} {
		owned := map[string]map[string]bool{}
		for _, w := range full.Initial {
			owned[w.Worker] = setOf(w.OwnedConnectors, w.OwnedTasks)
		}
		for k := 1; k <= len(tl.Rounds)+1; k++ {
			opts := testOpts(60000)
			opts.Detail, opts.NoPlot, opts.StateAfterRound = timeline.DetailSummary, true, k
			res, err := RollingRestartPlan(st, opts, 90000, StopClean, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := res.StateAfter(k).Branches[0].Eager
			if tl.Protocol != "eager" {
				got = res.StateAfter(k).Branches[0].Cooperative
			}
			if k > len(tl.Rounds) {
				if got.Round != len(tl.Rounds) || !slices.EqualFunc(got.Workers, tl.Summary.Final, sameHoldings) {
					t.Fatalf("%s: after round %d of %d: %+v, want the final state %+v", tl.Protocol, k, len(tl.Rounds), got, tl.Summary.Final)
				}
				continue
			}
			rd := tl.Rounds[k-1]
			if got.Round != k || got.EndMs != rd.EndMs || len(got.Workers) != len(rd.Workers) {
				t.Fatalf("%s round %d: state of round %d ending at %d with %d workers, want %d workers ending at %d", tl.Protocol, k, got.Round, got.EndMs, len(got.Workers), len(rd.Workers), rd.EndMs)
			}
			for i, w := range rd.Workers {
				held := owned[w.Worker]
				if held == nil {
					held = map[string]bool{}
				}
				for _, p := range slices.Concat(w.RevokedConnectors, w.RevokedTasks) {
					delete(held, p)
				}
				for p := range setOf(w.AssignedConnectors, w.AssignedTasks) {
					held[p] = true
				}
				owned[w.Worker] = held
				g := got.Workers[i]
				if g.Worker != w.Worker || g.Connectors != w.Connectors || g.Tasks != w.Tasks || !maps.Equal(setOf(g.OwnedConnectors, g.OwnedTasks), held) {
					t.Fatalf("%s round %d: %+v, the full rows give %s with %d/%d and %v", tl.Protocol, k, g, w.Worker, w.Connectors, w.Tasks, slices.Sorted(maps.Keys(held)))
				}
			}
		}
	}
}

func setOf(lists ...[]string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			out[p] = true
		}
	}
	return out
}

func sameHoldings(a, b timeline.WorkerCount) bool {
	return a.Worker == b.Worker && a.Connectors == b.Connectors && a.Tasks == b.Tasks &&
		slices.Equal(a.OwnedConnectors, b.OwnedConnectors) && slices.Equal(a.OwnedTasks, b.OwnedTasks)
}
