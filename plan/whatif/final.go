package whatif

import (
	"slices"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// FinalPieces is what each member owns at the end of a timeline, piece by
// piece (sorted names): the starting ownership with every round's
// revocations and assignments applied. Members that left are not listed.
// Lite timelines (the advisor's) keep no names and give the start.
func FinalPieces(state cluster.State, tl *timeline.Timeline) map[string][]string {
	own := map[string]map[string]bool{}
	for _, w := range state.Workers {
		own[w.ID] = map[string]bool{}
		c, ts := cluster.PieceNames(cluster.KeysOf(w.Owned))
		for _, n := range slices.Concat(c, ts) {
			own[w.ID][n] = true
		}
	}
	for _, r := range tl.Rounds {
		for _, w := range r.Workers {
			if own[w.Worker] == nil {
				own[w.Worker] = map[string]bool{}
			}
			for _, n := range slices.Concat(w.RevokedConnectors, w.RevokedTasks) {
				delete(own[w.Worker], n)
			}
			for _, n := range slices.Concat(w.AssignedConnectors, w.AssignedTasks) {
				own[w.Worker][n] = true
			}
		}
	}
	out := map[string][]string{}
	for _, f := range tl.Summary.Final {
		ns := []string{}
		for n := range own[f.Worker] {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		out[f.Worker] = ns
	}
	return out
}
