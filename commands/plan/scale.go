package plan

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// ScaleOptions are `plan scale`'s inputs.
type ScaleOptions struct {
	WhatIfOptions
	To     int
	Step   int
	PaceMs int64              // --pace; 0 when not given
	Stop   whatif.Stop        // how removed workers go
	Add    urfave.StringSlice // names of the new workers (HOST:PORT or member ids)
}

// NewCmdScale is `plan scale`; run replaces the run function in tests.
func NewCmdScale(run func(*cli.Env, *ScaleOptions) error) *cli.Command {
	return cli.Verb(run, runScale, func(o *ScaleOptions) *cli.Command {
		return &cli.Command{
			Name:  "scale",
			Usage: "preview a scale-out or scale-in to N workers, K at a time, as an autoscaler does it",
			Description: `
Scale-in removes the workers whose names sort last (as a StatefulSet removes its highest ordinals).`,
			Examples: `
connectscope plan scale --from cluster.snapshot.json --to 5 --step 1 --pace 1m
connectscope plan scale --from cluster.snapshot.json --to 2 --step 1 --pace 20s --stop clean`,
			Flags: append([]urfave.Flag{
				&urfave.IntFlag{Name: "to", Required: true, Destination: &o.To, Usage: "the number of workers wanted, `N`"},
				&urfave.IntFlag{Name: "step", Destination: &o.Step, Usage: "workers added or removed at a time, `K` (default: all at once)"},
				paceFlag(&o.PaceMs, "time between two steps, `DURATION`"),
				stopFlag(&o.Stop, "how removed workers go, `MODE`: clean or crash"),
				&urfave.StringSliceFlag{Name: "add", Destination: &o.Add, Usage: "scale-out: each new worker as HOST:PORT (the member id Connect gives it) or a member id, `W`; repeatable (default: invented names)"},
			}, o.WhatIfOptions.flags()...),
			Spec: whatIfSpec(map[string]cli.Candidates{flagStop: stopValues}),
		}
	})
}

func runScale(e *cli.Env, o *ScaleOptions) error {
	return whatIf(e, &o.WhatIfOptions, func(s start) (*whatif.PlanResult, error) {
		so := whatif.ScaleOptions{To: o.To, Step: o.Step, Stop: o.Stop, PaceMs: o.PaceMs}
		var err error
		if add := o.Add.Value(); len(add) > 0 {
			if so.Add, err = whatif.Joiners(s.state, add); err != nil {
				return nil, err
			}
		}
		return whatif.ScalePlan(s.state, s.opts, so)
	})
}
