package plan

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// LeaveOptions are `plan leave`'s inputs.
type LeaveOptions struct {
	WhatIfOptions
	Workers      urfave.StringSlice // --worker, repeatable
	ReturnsAfter string             // a duration or auto; only when given
	RestartFile  string             // --restart-times, with --returns-after auto
	Stop         whatif.Stop
	PaceMs       int64 // --pace; 0 when not given
}

// NewCmdLeave is `plan leave`; run replaces the run function in tests.
func NewCmdLeave(run func(*cli.Env, *LeaveOptions) error) *cli.Command {
	return cli.Verb(run, runLeave, func(o *LeaveOptions) *cli.Command {
		return &cli.Command{
			Name:  "leave",
			Usage: "preview workers leaving, at once or paced: the lost work held for the delay, and what happens if they return or not",
			Examples: `
connectscope plan leave --from cluster.snapshot.json --worker worker-2 --stop crash
connectscope -b broker:9092 plan leave --worker 10.0.1.12:8083 --returns-after 2m
connectscope plan leave --from cluster.snapshot.json --worker worker-2 --worker worker-3 --stop crash
connectscope plan leave --from cluster.snapshot.json --worker worker-2 --worker worker-3 --pace 20s`,
			Flags: append([]urfave.Flag{
				&urfave.StringSliceFlag{Name: "worker", Required: true, Destination: &o.Workers, Usage: "a leaving worker `W`: its name (worker-2), HOST:PORT, REST URL, client id or member id; repeat for several (each at most once)"},
				paceFlag(&o.PaceMs, "several workers leave one after another, this `DURATION` apart, in the order given (default: all at once)"),
				&urfave.StringFlag{Name: "returns-after", Destination: &o.ReturnsAfter, Usage: "also show the branch where it comes back (new member id, holding nothing) after this `DURATION`, or auto: its measured restart time (--restart-times, the status topic's history)"},
				restartTimesFlag(&o.RestartFile),
				stopFlag(&o.Stop, "how it goes, `MODE`: clean (graceful shutdown, LeaveGroup) or crash (noticed after the session timeout)"),
			}, o.WhatIfOptions.flags()...),
			Spec: whatIfSpec(map[string]cli.Candidates{"worker": cli.Workers, flagStop: stopValues}),
		}
	})
}

func runLeave(e *cli.Env, o *LeaveOptions) error {
	var back *int64
	if e.Given("returns-after") {
		r, err := parseRestart("returns-after", o.ReturnsAfter, o.RestartFile)
		if err != nil {
			return err
		}
		o.PlanOptions.restart, back = &r, &r.ms
	} else if o.RestartFile != "" {
		return cli.UsageErrorf("--%s is read with --returns-after %s; give that, or drop the file", flagRestartTimes, restartAuto)
	}
	return whatIf(e, &o.WhatIfOptions, func(s start) (*whatif.PlanResult, error) {
		lo := whatif.LeaveOptions{Workers: o.Workers.Value(), Stop: o.Stop, ReturnsAfterMs: back, PaceMs: o.PaceMs}
		return whatif.LeaveWorkersPlan(s.state, s.opts, lo)
	})
}
