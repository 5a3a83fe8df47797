package plan

import (
	"context"
	"fmt"
	"math"
)

// Bounds on what a scenario, --synthetic or a what-if plan may ask for, so
// that a typo or a hostile file is refused up front (exit 2) instead of
// taking the machine's memory or running for hours.
const (
	MaxPlanWorkers   = 100_000   // members at once
	MaxPlanPieces    = 2_000_000 // connectors plus tasks configured at once
	MaxScenarioSteps = 100_000
	// MaxScenarioFile is the largest scenario file read: far above the
	// bounds above written out as JSON or YAML, far below the memory a
	// /dev/zero or a mistyped path would take.
	MaxScenarioFile = 256 << 20
	MaxPlanRounds   = 100_000 // rounds one replay or plan may produce
	// MaxDurationMs bounds every simulated duration (sleep_ms,
	// --returns-after, --restart-time, delays) and the simulated clock
	// itself: a century, far from int64 overflow however steps add up.
	MaxDurationMs = 100 * 365 * 24 * 3600 * 1000
	// maxPlanBytes is the memory a plan may need by estimate (~1 GiB).
	maxPlanBytes = 1 << 30
)

// Memory estimates, measured on `plan replay -o json` and the what-if plans
// (BENCHMARKS.md "Plan bounds"): the simulator state, then every round kept
// for the output.
const (
	statePieceBytes  = 200
	stateWorkerBytes = 1000
	roundPieceBytes  = 120
	roundWorkerBytes = 300
	roundBytes       = 2000
	// A what-if plan keeps each piece's history on every branch and
	// protocol; a rolling restart keeps about rollPieceBytes more per piece
	// and restart (eager stops every piece in every round), table output
	// included (BENCHMARKS.md, "Rolling restarts at scale").
	whatifPieceBytes = 2500
	rollPieceBytes   = 125
)

// BoundsError is a request beyond the bounds above. The CLI maps it to exit 2.
type BoundsError struct{ Msg string }

func (e *BoundsError) Error() string { return e.Msg }

func boundsErr(format string, args ...any) error {
	return &BoundsError{Msg: fmt.Sprintf(format, args...)}
}

// gib renders a byte count for messages.
func gib(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }

// replayBudget tracks a replay's estimated memory as rounds accumulate.
type replayBudget struct {
	bytes  float64
	rounds int
}

func roundCost(workers, pieces int) float64 {
	return float64(roundPieceBytes)*float64(pieces) + float64(roundWorkerBytes)*float64(workers) + roundBytes
}

func stateCost(workers, pieces int) float64 {
	return float64(statePieceBytes)*float64(pieces) + float64(stateWorkerBytes)*float64(workers)
}

// add counts n rounds over a cluster of that size and reports whether the
// replay stays within its bounds.
func (b *replayBudget) add(n, workers, pieces int) bool {
	b.rounds += n
	b.bytes += float64(n) * roundCost(workers, pieces)
	return b.rounds <= MaxPlanRounds && b.bytes <= maxPlanBytes
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
				if pieces > MaxPlanPieces {
					return stepErr(i, st.Kind, "more than %d connectors and tasks; connectscope plans at most that many at once", MaxPlanPieces)
				}
			}
		case StepJoin:
			for _, w := range st.Workers {
				members[w] = true
			}
			if len(members) > MaxPlanWorkers {
				return stepErr(i, st.Kind, "%d members; connectscope plans at most %d workers", len(members), MaxPlanWorkers)
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
		peakState = math.Max(peakState, stateCost(len(members), pieces))
		if budget.bytes+peakState > maxPlanBytes {
			return budgetErr(i, st.Kind, budget)
		}
	}
	return nil
}

func budgetErr(i int, kind string, b replayBudget) error {
	if b.rounds > MaxPlanRounds {
		return stepErr(i, kind, "the scenario runs more than %d rebalance rounds; split it into smaller scenarios", MaxPlanRounds)
	}
	return stepErr(i, kind, "the replay would need more than ~1 GiB of memory (about %s by here); use fewer steps, workers or tasks", gib(b.bytes))
}

// checkPlanBounds refuses a what-if plan too large to compute in ~1 GiB.
// restarts is how many workers the plan restarts (0 or 1 for join/leave).
func checkPlanBounds(state ClusterState, opts PlanOptions, restarts int) error {
	pieces, err := checkPlanSize(state, opts)
	if err != nil {
		return err
	}
	est := float64(pieces)*math.Max(whatifPieceBytes, rollPieceBytes*float64(restarts)) + stateCost(len(state.Workers), pieces)
	if est > maxPlanBytes {
		if restarts > 1 {
			return boundsErr("this plan would need about %s of memory (%d workers, %d connectors and tasks, %d restarts); connectscope refuses plans over ~1 GiB: restart fewer workers (--order) or plan a smaller cluster", gib(est), len(state.Workers), pieces, restarts)
		}
		return boundsErr("this plan would need about %s of memory (%d workers, %d connectors and tasks); connectscope refuses plans over ~1 GiB: plan a smaller cluster", gib(est), len(state.Workers), pieces)
	}
	return nil
}

// MaxAdviseWork bounds the size of plan advise's sweep, measured as the
// rolling restarts it simulates × the workers × (the workers + the
// connectors and tasks): a roll takes one to four rounds per worker and a
// round costs about the members plus the pieces. The default sweep (88
// rolls) of 1,000 workers and 10,000 connectors and tasks is 0.97 × 10⁹
// and took 201 s of CPU, about 100 s on 2 cores (BENCHMARKS.md, "plan
// advise at scale"); the bound keeps a sweep near a minute on 2 cores.
const MaxAdviseWork = 6e8

// adviseWork is the sweep's size as MaxAdviseWork measures it.
func adviseWork(state ClusterState, rolls int) float64 {
	w := float64(len(state.Workers))
	return float64(rolls) * w * (w + float64(statePieces(state)))
}

func statePieces(state ClusterState) int {
	pieces := 0
	for _, c := range state.Connectors {
		pieces += 1 + c.Tasks
	}
	return pieces
}

// checkAdviseBounds refuses, before anything runs, an advisor sweep that
// would take more than a minute or so, and settings outside the plans'
// bounds (the advisor keeps only each simulation's costs, so memory is not
// what limits it).
func checkAdviseBounds(state ClusterState, opts PlanOptions, ao AdviseOptions, settings []Setting) error {
	pieces, err := checkPlanSize(state, opts)
	if err != nil {
		return err
	}
	for _, d := range []struct {
		what string
		ms   int64
	}{{"--restart-time", ao.RestartMs}, {"--gap", ao.GapMs}, {"--max-downtime", ao.MaxDowntimeMs}} {
		if err := checkDurationMs(d.what, d.ms); err != nil {
			return err
		}
	}
	for _, s := range settings {
		if err := checkDurationMs("--delays", s.DelayMs); err != nil {
			return err
		}
	}
	if work := adviseWork(state, len(settings)); work > MaxAdviseWork {
		return boundsErr("this sweep is too large to run in about a minute: %d rolling restarts of %d workers with %d connectors and tasks "+
			"(settings x workers x (workers + connectors and tasks) = %.1f billion; connectscope advises up to %.1f billion): "+
			"sweep fewer settings (--delays, --order, --pacing, --stop), or preview one setting with plan rolling-restart",
			len(settings), len(state.Workers), pieces, work/1e9, MaxAdviseWork/1e9)
	}
	return nil
}

// checkPlanSize checks the time-model settings and the cluster's size
// against the fixed bounds, and returns its connectors and tasks.
func checkPlanSize(state ClusterState, opts PlanOptions) (pieces int, err error) {
	for _, d := range []struct {
		what string
		ms   int64
	}{{"--max-delay", opts.MaxDelayMs}, {"--round-time", opts.RoundTimeMs}, {"--session-timeout", opts.SessionTimeoutMs}} {
		if err := checkDurationMs(d.what, d.ms); err != nil {
			return 0, err
		}
	}
	if len(state.Workers) > MaxPlanWorkers {
		return 0, boundsErr("%d workers: connectscope plans at most %d", len(state.Workers), MaxPlanWorkers)
	}
	pieces = statePieces(state)
	if pieces > MaxPlanPieces {
		return 0, boundsErr("%d connectors and tasks: connectscope plans at most %d", pieces, MaxPlanPieces)
	}
	return pieces, nil
}

// checkDurationMs refuses a simulated duration beyond MaxDurationMs.
func checkDurationMs(what string, ms int64) error {
	if ms < 0 || ms > MaxDurationMs {
		return boundsErr("%s: %d ms is outside 0 to %d (a century)", what, ms, int64(MaxDurationMs))
	}
	return nil
}

// cancelled reports the context's error, wrapped for the one line the CLI
// prints; a nil context never cancels.
func cancelled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("planning stopped: %w", err)
	}
	return nil
}
