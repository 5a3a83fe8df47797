package scenario

import (
	"math"

	"github.com/connectscope/connectscope/plan/bounds"
)

// Bounds on a scenario file, beside the plans' bounds (bounds.MaxWorkers,
// MaxPieces, MaxRounds, MaxDurationMs).
const (
	MaxScenarioSteps = 100_000
	// MaxScenarioFile is the largest scenario file read: far above the
	// bounds written out as JSON or YAML, far below the memory a
	// /dev/zero or a mistyped path would take.
	MaxScenarioFile = 256 << 20
)

// replayBudget tracks a replay's estimated memory as rounds accumulate.
type replayBudget struct {
	bytes  float64
	rounds int
}

// add counts n rounds over a cluster of that size and reports whether the
// replay stays within its bounds.
func (b *replayBudget) add(n, workers, pieces int) bool {
	b.rounds += n
	b.bytes += float64(n) * bounds.RoundCost(workers, pieces)
	return b.rounds <= bounds.MaxRounds && b.bytes <= bounds.MaxBytes
}

// checkScenarioBounds walks the steps once, before any simulation: members
// and pieces at every step, rounds (a settle counts as its first round; the
// rest are checked as they run) and the estimated memory.
func checkScenarioBounds(sc *Scenario) error {
	members := map[string]bool{}
	pieces := 0
	var budget replayBudget
	peakState := 0.0
	for i, st := range sc.Steps {
		switch st.Kind {
		case StepConnectors:
			pieces = 0
			for _, c := range st.Connectors {
				pieces += 1 + c.Tasks
				if pieces > bounds.MaxPieces {
					return stepErr(i, st.Kind, "more than %d connectors and tasks; connectscope plans at most that many at once", bounds.MaxPieces)
				}
			}
		case StepJoin:
			for _, w := range st.Workers {
				members[w] = true
			}
			if len(members) > bounds.MaxWorkers {
				return stepErr(i, st.Kind, "%d members; connectscope plans at most %d workers", len(members), bounds.MaxWorkers)
			}
		case StepLeave:
			for _, w := range st.Workers {
				delete(members, w)
			}
		case StepRebalance, StepSettle:
			if !budget.add(1, len(members), pieces) {
				return budgetErr(i, st.Kind, budget)
			}
		}
		peakState = math.Max(peakState, bounds.StateCost(len(members), pieces))
		if budget.bytes+peakState > bounds.MaxBytes {
			return budgetErr(i, st.Kind, budget)
		}
	}
	return nil
}

func budgetErr(i int, kind string, b replayBudget) error {
	if b.rounds > bounds.MaxRounds {
		return stepErr(i, kind, "the scenario runs more than %d rebalance rounds; split it into smaller scenarios", bounds.MaxRounds)
	}
	return stepErr(i, kind, "the replay would need more than ~1 GiB of memory (about %s by here); use fewer steps, workers or tasks", bounds.GiB(b.bytes))
}
