package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/connectscope/connectscope/plan"
)

// Flag names of plan advise.
const (
	flagDelays   = "delays"
	flagPacing   = "pacing"
	flagGap      = "gap"
	flagMaxMoves = "max-moves"
)

func planAdviseCommand() *cli.Command {
	return &cli.Command{
		Name:  "advise",
		Usage: "sweep scheduled.rebalance.max.delay.ms, restart order, pacing and stop mode; recommend a setting for rolling restarts and crashes",
		Description: "Runs every combination through the same assignor and time model as plan rolling-restart and plan leave:\n" +
			"the rolling restart's cost (task-seconds not running, longest outage, tasks moved, rounds, time until balanced)\n" +
			"and the failover when one worker crashes and never returns. Prints the Pareto front, marks the current\n" +
			"setting and recommends one within --max-downtime and --max-moves.\n" +
			"Exit status: 0 when the current setting is on the front, 1 when the recommended setting beats it on both costs.\n\n" +
			"Examples:\n" +
			"  connectscope plan advise --from cluster.snapshot.json --restart-time 90s\n" +
			"  connectscope -b broker:9092 plan advise --restart-time 2m --max-downtime 3m -o json\n" +
			"  connectscope plan advise --synthetic workers=6,connectors=30,tasks=3 --restart-time 90s --plot tradeoff.svg",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "restart-time", Required: true, Usage: "how long a worker is away, from stop to rejoin, `DURATION`"},
			&cli.StringFlag{Name: flagDelays, Usage: "delays to sweep, `D1,D2,...` (durations or ms; default: 0 to 10m, values around the restart time, and the current one)"},
			&cli.StringFlag{Name: "order", Usage: "restart orders to compare, `ORDERS`: leader-first, leader-last (default both)"},
			&cli.StringFlag{Name: flagPacing, Usage: "pacings to compare, `PACINGS`: back (next as soon as the last is back), stable (after the group is stable again), gap (--gap after the last is back); default back,stable, and gap when --gap is given"},
			&cli.StringFlag{Name: flagGap, Usage: "the fixed pacing gap, `DURATION` after the previous worker is back"},
			&cli.StringFlag{Name: flagStop, Usage: "stop modes to compare, `MODES`: clean, crash (default both)"},
			&cli.StringFlag{Name: flagMaxDowntime, Usage: "recommend only settings whose crash outage (one worker crashes, never returns) is at most `DURATION`"},
			&cli.StringFlag{Name: flagMaxMoves, Usage: "recommend only settings whose rolling restart moves at most `N` tasks"},
		}, adviseCommonFlags()...),
		Action: action(func(c *cli.Context, g Globals) error {
			if err := noArgs(c); err != nil {
				return err
			}
			ao, err := adviseOptions(c)
			if err != nil {
				return err
			}
			plotPath, err := plotTarget(c)
			if err != nil {
				return err
			}
			state, opts, err := planInputs(c, g)
			if err != nil {
				return err
			}
			res, err := plan.Advise(c.Context, state, opts, ao)
			if err != nil {
				if c.Context.Err() != nil {
					return err
				}
				return planFailed(err)
			}
			if plotPath != "" {
				if err := writeAdvisePlot(plotPath, res); err != nil {
					return err
				}
			}
			if err := emit(c, g, res); err != nil {
				return err
			}
			if res.Verdict == plan.VerdictBeaten {
				return Exit(ExitFindings, fmt.Errorf("the current setting (%s) is beaten on both costs by %s", res.Current, res.Recommended.Setting))
			}
			return nil
		}),
	}
}

// adviseCommonFlags are the plans' common flags, --plot saying what the
// advisor draws.
func adviseCommonFlags() []cli.Flag {
	out := []cli.Flag{}
	for _, f := range planCommonFlags() {
		if f.Names()[0] == flagPlot {
			f = &cli.StringFlag{Name: flagPlot, Usage: "also draw the trade-off into `FILE` (.svg or .png): over the delay, the roll's task-seconds and the crash outage, the front, current and recommended settings marked"}
		}
		out = append(out, f)
	}
	return out
}

// adviseOptions reads the sweep flags.
func adviseOptions(c *cli.Context) (plan.AdviseOptions, error) {
	ao := plan.AdviseOptions{MaxMoves: -1}
	var err error
	if ao.RestartMs, err = parseDurationMs("--restart-time", c.String("restart-time")); err != nil {
		return ao, err
	}
	if c.IsSet(flagDelays) {
		ao.DelaysMs = []int64{}
		for _, d := range splitList([]string{c.String(flagDelays)}) {
			ms, err := parseDurationMs("--"+flagDelays, d)
			if err != nil {
				return ao, err
			}
			ao.DelaysMs = append(ao.DelaysMs, ms)
		}
		if len(ao.DelaysMs) == 0 {
			return ao, UsageErrorf("--%s: give at least one delay", flagDelays)
		}
	}
	if c.IsSet("order") {
		for _, o := range splitList([]string{c.String("order")}) {
			o = strings.ToLower(o)
			if o != plan.OrderLeaderFirst && o != plan.OrderLeaderLast {
				return ao, UsageErrorf("--order: want %s or %s, got %q", plan.OrderLeaderFirst, plan.OrderLeaderLast, o)
			}
			ao.Orders = append(ao.Orders, o)
		}
	}
	if c.IsSet(flagGap) {
		if ao.GapMs, err = parseDurationMs("--"+flagGap, c.String(flagGap)); err != nil {
			return ao, err
		}
	}
	if c.IsSet(flagPacing) {
		ao.Pacings = []plan.Pacing{}
		for _, p := range splitList([]string{c.String(flagPacing)}) {
			switch p = strings.ToLower(p); p {
			case plan.PaceBack, plan.PaceStable:
				ao.Pacings = append(ao.Pacings, plan.Pacing{Mode: p})
			case plan.PaceGap:
				if !c.IsSet(flagGap) {
					return ao, UsageErrorf("--%s gap: give the gap with --%s DURATION", flagPacing, flagGap)
				}
				ao.Pacings = append(ao.Pacings, plan.Pacing{Mode: p, GapMs: ao.GapMs})
			default:
				return ao, UsageErrorf("--%s: want back, stable or gap, got %q", flagPacing, p)
			}
		}
	}
	if c.IsSet(flagStop) {
		for _, s := range splitList([]string{c.String(flagStop)}) {
			s = strings.ToLower(s)
			if s != plan.StopClean && s != plan.StopCrash {
				return ao, UsageErrorf("--%s: want clean or crash, got %q", flagStop, s)
			}
			ao.Stops = append(ao.Stops, s)
		}
	}
	if c.IsSet(flagMaxDowntime) {
		if ao.MaxDowntimeMs, err = parseDurationMs("--"+flagMaxDowntime, c.String(flagMaxDowntime)); err != nil {
			return ao, err
		}
		if ao.MaxDowntimeMs == 0 {
			return ao, UsageErrorf("--%s: must be more than 0 (a crash is noticed only after the session timeout)", flagMaxDowntime)
		}
	}
	if c.IsSet(flagMaxMoves) {
		n, err := strconv.Atoi(strings.TrimSpace(c.String(flagMaxMoves)))
		if err != nil || n < 0 {
			return ao, UsageErrorf("--%s: want a whole number of tasks, 0 or more, got %q", flagMaxMoves, c.String(flagMaxMoves))
		}
		ao.MaxMoves = n
	}
	return ao, nil
}
