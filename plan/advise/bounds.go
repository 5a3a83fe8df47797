package advise

import (
	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// MaxAdviseWork bounds the size of plan advise's sweep, measured as the
// rolling restarts it simulates × the workers × (the workers + the
// connectors and tasks): a roll takes one to four rounds per worker and a
// round costs about the members plus the pieces. Leader-first rolls count
// once per pacing and stop mode, not once per delay: every restart is a
// leader's, whose successor remembers no delay, so the sweep runs them once
// for every delay (sweeprun.go; not when the cluster was read with a delay
// pending, whose end depends on the delay). The default sweep of 1,000
// workers simulates 48 rolls: with 10,000 connectors and tasks 0.53 × 10⁹,
// 26 s of CPU; with 30,000, 1.5 × 10⁹, 33 s of CPU and 254 MiB (since the
// cooperative rounds walk only what changed; BENCHMARKS.md, "Issue 20's
// goals at the end of the session"). 2 × 10⁹ keeps a sweep near a minute
// of CPU.
const MaxAdviseWork = 2e9

// adviseRolls is how many rolls of the settings the sweep simulates.
func adviseRolls(state cluster.State, settings []Setting) int {
	if state.Pending != nil && state.Pending.DelayMs > 0 {
		return len(settings)
	}
	rolls := 0
	ways := map[rollWay]bool{}
	for _, s := range settings {
		if s.Order != OrderLeaderFirst {
			rolls++
		} else if w := wayOf(s); !ways[w] {
			ways[w] = true
			rolls++
		}
	}
	return rolls
}

// adviseWork is the sweep's size as MaxAdviseWork measures it.
func adviseWork(state cluster.State, rolls int) float64 {
	w := float64(len(state.Workers))
	return float64(rolls) * w * (w + float64(state.Pieces()))
}

// checkAdviseBounds refuses, before anything runs, an advisor sweep that
// would take more than a minute or so, and settings outside the plans'
// bounds (the advisor keeps only each simulation's costs, so memory is not
// what limits it).
func checkAdviseBounds(state cluster.State, opts timeline.Options, ao AdviseOptions, settings []Setting) error {
	pieces, err := whatif.CheckPlanSize(state, opts)
	if err != nil {
		return err
	}
	for _, d := range []struct {
		what string
		ms   int64
	}{{"--restart-time", ao.RestartMs}, {"--gap", ao.GapMs}, {"--max-downtime", ao.MaxDowntimeMs}} {
		if err := bounds.CheckDurationMs(d.what, d.ms); err != nil {
			return err
		}
	}
	for _, s := range settings {
		if err := bounds.CheckDurationMs("--delays", s.DelayMs); err != nil {
			return err
		}
	}
	rolls := adviseRolls(state, settings)
	if work := adviseWork(state, rolls); work > MaxAdviseWork {
		return bounds.Errorf("this sweep is too large to run in about a minute: %d rolling restarts of %d workers with %d connectors and tasks "+
			"(rolls x workers x (workers + connectors and tasks) = %.1f billion; connectscope advises up to %.1f billion): "+
			"sweep fewer settings (--delays, --order, --pacing, --stop), or preview one setting with plan rolling-restart",
			rolls, len(state.Workers), pieces, work/1e9, MaxAdviseWork/1e9)
	}
	return nil
}
