package plan

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// JoinOptions are `plan join`'s inputs.
type JoinOptions struct {
	WhatIfOptions
	Add    urfave.StringSlice // N new workers, HOST:PORT or member ids; repeatable
	PaceMs int64              // --pace; 0 when not given
}

// NewCmdJoin is `plan join`; run replaces the run function in tests.
func NewCmdJoin(run func(*cli.Env, *JoinOptions) error) *cli.Command {
	return cli.Verb(run, runJoin, func(o *JoinOptions) *cli.Command {
		return &cli.Command{
			Name:  "join",
			Usage: "preview workers joining the group, at once or paced",
			Examples: `
connectscope plan join --from cluster.snapshot.json --add 1
connectscope plan join --from cluster.snapshot.json --add 10.0.1.14:8083 --add 10.0.1.15:8083 --pace 30s
connectscope plan join --synthetic workers=4,connectors=20,tasks=3 --add 2 -o mermaid`,
			Flags: append([]urfave.Flag{
				&urfave.StringSliceFlag{Name: "add", Required: true, Destination: &o.Add, Usage: "`N` new workers, or each as HOST:PORT (named as Connect will, connect-HOST:PORT-<uuid>) or a member id; repeatable"},
				paceFlag(&o.PaceMs, "the new workers join one after another, this `DURATION` apart (default: all at once)"),
			}, o.WhatIfOptions.flags()...),
			Spec: whatIfSpec(map[string]cli.Candidates{}),
		}
	})
}

func runJoin(e *cli.Env, o *JoinOptions) error {
	return whatIf(e, &o.WhatIfOptions, func(s start) (*whatif.PlanResult, error) {
		names, err := whatif.Joiners(s.state, o.Add.Value())
		if err != nil {
			return nil, err
		}
		return whatif.JoinWorkersPlan(s.state, s.opts, whatif.JoinOptions{Workers: names, PaceMs: o.PaceMs})
	})
}
