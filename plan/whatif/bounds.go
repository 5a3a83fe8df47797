package whatif

import (
	"math"

	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// checkPlanBounds refuses a what-if plan too large to compute in ~1 GiB.
// restarts is how many workers the plan restarts (0 or 1 for join/leave).
func checkPlanBounds(state cluster.State, opts timeline.Options, restarts int) error {
	pieces, err := CheckPlanSize(state, opts)
	if err != nil {
		return err
	}
	if opts.Detail != timeline.DetailFull {
		// The summary and the compact form keep per round what it changed
		// and per piece its sums, not every worker's view of every round
		// and every outage interval: a roll costs about what one event does.
		restarts = min(restarts, 1)
	}
	est := float64(pieces)*math.Max(bounds.WhatifPieceBytes, bounds.RollPieceBytes*float64(restarts)) + bounds.StateCost(len(state.Workers), pieces)
	if est > bounds.MaxBytes {
		if restarts > 1 {
			return bounds.Errorf("this plan would need about %s of memory (%d workers, %d connectors and tasks, %d restarts); connectscope refuses plans over ~1 GiB: restart fewer workers (--order) or plan a smaller cluster", bounds.GiB(est), len(state.Workers), pieces, restarts)
		}
		return bounds.Errorf("this plan would need about %s of memory (%d workers, %d connectors and tasks); connectscope refuses plans over ~1 GiB: plan a smaller cluster", bounds.GiB(est), len(state.Workers), pieces)
	}
	return nil
}

// CheckPlanSize checks the time-model settings and the cluster's size
// against the fixed bounds, and returns its connectors and tasks.
func CheckPlanSize(state cluster.State, opts timeline.Options) (pieces int, err error) {
	for _, d := range []struct {
		what string
		ms   int64
	}{{"--max-delay", opts.MaxDelayMs}, {"--round-time", opts.RoundTimeMs}, {"--session-timeout", opts.SessionTimeoutMs}} {
		if err := bounds.CheckDurationMs(d.what, d.ms); err != nil {
			return 0, err
		}
	}
	if len(state.Workers) > bounds.MaxWorkers {
		return 0, bounds.Errorf("%d workers: connectscope plans at most %d", len(state.Workers), bounds.MaxWorkers)
	}
	pieces = state.Pieces()
	if pieces > bounds.MaxPieces {
		return 0, bounds.Errorf("%d connectors and tasks: connectscope plans at most %d", pieces, bounds.MaxPieces)
	}
	return pieces, nil
}
