package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// Flag names of plan advise.
const (
	flagDelays      = "delays"
	flagPacing      = "pacing"
	flagGap         = "gap"
	flagMaxMoves    = "max-moves"
	flagMaxDowntime = "max-downtime"
)

// AdviseOptions are `plan advise`'s inputs: the sweep and the bounds of
// the recommendation, besides the common plan flags.
type AdviseOptions struct {
	PlanOptions
	RestartTime string
	RestartFile string // --restart-times, with --restart-time auto
	Delays      string
	Order       string
	Pacings     []whatif.PaceMode
	Gap         string
	Stops       []whatif.Stop
	MaxDowntime string
	MaxMoves    string
}

// NewCmdAdvise is `plan advise`; run replaces the run function in tests.
func NewCmdAdvise(run func(*cli.Env, *AdviseOptions) error) *cli.Command {
	return cli.Verb(run, runAdvise, func(o *AdviseOptions) *cli.Command {
		return &cli.Command{
			Name:  "advise",
			Usage: "sweep scheduled.rebalance.max.delay.ms, restart order, pacing and stop mode; recommend a setting for rolling restarts and crashes",
			Description: `
Runs every combination through the same assignor and time model as plan rolling-restart and plan leave:
the rolling restart's cost (task-seconds not running, longest outage, tasks moved, rounds, time until balanced)
and the failover when one worker crashes and never returns. Prints the Pareto front, marks the current
setting and recommends one within --max-downtime and --max-moves.
Exit status: 0 when the current setting is on the front, 1 when the recommended setting beats it on both costs.`,
			Examples: `
connectscope plan advise --from cluster.snapshot.json --restart-time 90s
connectscope -b broker:9092 plan advise --restart-time 2m --max-downtime 3m -o json
connectscope plan advise --synthetic workers=6,connectors=30,tasks=3 --restart-time 90s --plot tradeoff.svg`,
			Flags: append([]urfave.Flag{
				restartTimeFlag(&o.RestartTime),
				restartTimesFlag(&o.RestartFile),
				&urfave.StringFlag{Name: flagDelays, Destination: &o.Delays, Usage: "delays to sweep, `D1,D2,...` (durations or ms; default: 0 to 10m, values around the restart time, and the current one)"},
				&urfave.StringFlag{Name: flagOrder, Destination: &o.Order, Usage: "restart orders to compare, `ORDERS`: leader-first, leader-last (default both)"},
				cli.ValueFlag(flagPacing, &o.Pacings, parsePacings, "pacings to compare, `PACINGS`: back (next as soon as the last is back), stable (after the group is stable again), gap (--gap after the last is back); default back,stable, and gap when --gap is given"),
				&urfave.StringFlag{Name: flagGap, Destination: &o.Gap, Usage: "the fixed pacing gap, `DURATION` after the previous worker is back"},
				cli.ValueFlag(flagStop, &o.Stops, parseStops, "stop modes to compare, `MODES`: clean, crash (default both)"),
				&urfave.StringFlag{Name: flagMaxDowntime, Destination: &o.MaxDowntime, Usage: "recommend only settings whose crash outage (one worker crashes, never returns) is at most `DURATION`"},
				&urfave.StringFlag{Name: flagMaxMoves, Destination: &o.MaxMoves, Usage: "recommend only settings whose rolling restart moves at most `N` tasks"},
			}, o.flags("also draw the trade-off into `FILE` (.svg or .png): over the delay, the roll's task-seconds and the crash outage, the front, current and recommended settings marked")...),
			Spec: cli.Spec{
				Read:   cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true, SettleGroup: true},
				Result: (*advise.AdviseResult)(nil),
				Inputs: inputs,
				Values: map[string]cli.Candidates{
					flagProtocol: protocolValues,
					flagStop:     stopValues,
					flagOrder:    cli.Fixed(advise.OrderLeaderFirst, advise.OrderLeaderLast),
					flagPacing:   cli.Fixed(string(whatif.PaceBack), string(whatif.PaceStable), string(whatif.PaceGap)),
				},
			},
		}
	})
}

func runAdvise(e *cli.Env, o *AdviseOptions) error {
	ao, err := o.sweep(e)
	if err != nil {
		return err
	}
	plotPath, err := plotTarget(o.Plot)
	if err != nil {
		return err
	}
	state, opts, err := planInputs(e, &o.PlanOptions)
	if err != nil {
		return err
	}
	// The tables show a few settings' figures; JSON shows every one.
	switch e.Globals.Output {
	case "", format.OutputTable, format.OutputWide:
		ao.ShownOnly = e.Globals.JQ == "" && plotPath == ""
	}
	clearProgress := func() {}
	if format.IsTerminal(e.IO.Err) {
		// A long sweep shows how far it is, on a terminal only; the line
		// goes before anything else is printed.
		ao.Progress, clearProgress = advise.AdviseProgressLine(e.IO.Err)
	}
	e.SweepMemory()
	res, err := advise.Advise(e.Ctx, state, opts, ao)
	clearProgress()
	if err != nil {
		if e.Ctx.Err() != nil {
			return err
		}
		return planFailed(err)
	}
	warnDefaults(e, res.Assumptions.Settings)
	if plotPath != "" {
		if err := writeAdvisePlot(plotPath, res); err != nil {
			return err
		}
	}
	if err := e.Emit(res); err != nil {
		return err
	}
	if res.Verdict == advise.VerdictBeaten {
		return cli.Exit(cli.ExitFindings, fmt.Errorf("the current setting (%s) is beaten on both costs by %s", res.Current, res.Recommended.Setting))
	}
	return nil
}

// sweep reads the sweep flags.
func (o *AdviseOptions) sweep(e *cli.Env) (advise.AdviseOptions, error) {
	ao := advise.AdviseOptions{MaxMoves: -1}
	var err error
	restart, err := parseRestart(flagRestartTime, o.RestartTime, o.RestartFile)
	if err != nil {
		return ao, err
	}
	ao.RestartMs, o.PlanOptions.restart = restart.ms, &restart
	if e.Given(flagDelays) {
		ao.DelaysMs = []int64{}
		for _, d := range cli.SplitList([]string{o.Delays}) {
			ms, err := parseDurationMs("--"+flagDelays, d)
			if err != nil {
				return ao, err
			}
			ao.DelaysMs = append(ao.DelaysMs, ms)
		}
		if len(ao.DelaysMs) == 0 {
			return ao, cli.UsageErrorf("--%s: give at least one delay", flagDelays)
		}
	}
	if e.Given(flagOrder) {
		for _, ord := range cli.SplitList([]string{o.Order}) {
			ord = strings.ToLower(ord)
			if ord != advise.OrderLeaderFirst && ord != advise.OrderLeaderLast {
				return ao, cli.UsageErrorf("--order: want %s or %s, got %q", advise.OrderLeaderFirst, advise.OrderLeaderLast, ord)
			}
			ao.Orders = append(ao.Orders, ord)
		}
	}
	if e.Given(flagGap) {
		if ao.GapMs, err = parseDurationMs("--"+flagGap, o.Gap); err != nil {
			return ao, err
		}
	}
	if e.Given(flagPacing) {
		ao.Pacings = []whatif.Pacing{}
		for _, m := range o.Pacings {
			pace := whatif.Pacing{Mode: m}
			if m == whatif.PaceGap {
				if !e.Given(flagGap) {
					return ao, cli.UsageErrorf("--%s gap: give the gap with --%s DURATION", flagPacing, flagGap)
				}
				pace.GapMs = ao.GapMs
			}
			ao.Pacings = append(ao.Pacings, pace)
		}
	}
	if e.Given(flagStop) {
		ao.Stops = o.Stops
	}
	if e.Given(flagMaxDowntime) {
		if ao.MaxDowntimeMs, err = parseDurationMs("--"+flagMaxDowntime, o.MaxDowntime); err != nil {
			return ao, err
		}
		if ao.MaxDowntimeMs == 0 {
			return ao, cli.UsageErrorf("--%s: must be more than 0 (a crash is noticed only after the session timeout)", flagMaxDowntime)
		}
	}
	if e.Given(flagMaxMoves) {
		n, err := strconv.Atoi(strings.TrimSpace(o.MaxMoves))
		if err != nil || n < 0 {
			return ao, cli.UsageErrorf("--%s: want a whole number of tasks, 0 or more, got %q", flagMaxMoves, o.MaxMoves)
		}
		ao.MaxMoves = n
	}
	return ao, nil
}

// parsePacings reads --pacing: pacing modes, comma-separated, any case.
func parsePacings(s string) ([]whatif.PaceMode, error) {
	var out []whatif.PaceMode
	for _, m := range cli.SplitList([]string{s}) {
		mode, err := whatif.ParsePaceMode(m)
		if err != nil {
			return nil, err
		}
		out = append(out, mode)
	}
	return out, nil
}
