package plan

import "math"

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
