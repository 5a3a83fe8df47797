package plan

import (
	"slices"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// RollingRestartOptions are `plan rolling-restart`'s inputs.
type RollingRestartOptions struct {
	WhatIfOptions
	RestartTime string
	RestartFile string // --restart-times, with --restart-time auto
	Order       string // W1,W2,...
	Stop        whatif.Stop
}

// NewCmdRollingRestart is `plan rolling-restart`; run replaces the run
// function in tests.
func NewCmdRollingRestart(run func(*cli.Env, *RollingRestartOptions) error) *cli.Command {
	return cli.Verb(run, runRollingRestart, func(o *RollingRestartOptions) *cli.Command {
		return &cli.Command{
			Name:  "rolling-restart",
			Usage: "preview restarting every worker one at a time: a timeline over the whole roll",
			Examples: `
connectscope plan rolling-restart --from cluster.snapshot.json --restart-time 90s
connectscope -b broker:9092 plan rolling-restart --restart-time 2m --order worker-1,worker-2,worker-3
connectscope -b broker:9092 plan rolling-restart --restart-time auto --restart-times restart-times.json`,
			Flags: append([]urfave.Flag{
				restartTimeFlag(&o.RestartTime),
				restartTimesFlag(&o.RestartFile),
				&urfave.StringFlag{Name: flagOrder, Destination: &o.Order, Usage: "restart order `W1,W2,...` (default: members in group order, the leader last)"},
				stopFlag(&o.Stop, "how each worker stops, `MODE`: clean (LeaveGroup) or crash (noticed after the session timeout)"),
			}, o.WhatIfOptions.flags()...),
			Spec: whatIfSpec(map[string]cli.Candidates{flagOrder: workerList, flagStop: stopValues}),
		}
	})
}

func runRollingRestart(e *cli.Env, o *RollingRestartOptions) error {
	restart, err := parseRestart(flagRestartTime, o.RestartTime, o.RestartFile)
	if err != nil {
		return err
	}
	o.PlanOptions.restart = &restart
	return whatIf(e, &o.WhatIfOptions, func(s start) (*whatif.PlanResult, error) {
		return whatif.RollingRestartPlan(s.state, s.opts, restart.ms, o.Stop, cli.SplitList([]string{o.Order}))
	})
}

// workerList completes a comma-separated list of workers: its last element.
func workerList(q *cli.Query) []string {
	done := ""
	if i := strings.LastIndexByte(q.Cur, ','); i >= 0 {
		done = q.Cur[:i+1]
	}
	var out []string
	for _, w := range cli.Workers(q) {
		if !slices.Contains(strings.Split(done, ","), w) {
			out = append(out, done+w)
		}
	}
	return out
}
