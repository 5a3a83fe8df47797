package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// BalanceCheckOptions are `check balance`'s inputs.
type BalanceCheckOptions struct {
	CheckOptions
	BalanceOptions
}

// NewCmdBalance is `check balance`; run replaces the run function in tests.
func NewCmdBalance(run func(*cli.Env, *BalanceCheckOptions) error) *cli.Command {
	return cli.Verb(run, runBalance, func(o *BalanceCheckOptions) *cli.Command {
		return &cli.Command{
			Name:  "balance",
			Usage: "check the spread of connectors and tasks, failure headroom and zombie signs",
			Examples: `
connectscope -b broker:9092 check balance --capacity 20
connectscope check balance --from cluster.snapshot.json --zones zones.txt`,
			Flags: append(o.CheckOptions.flags(), o.BalanceOptions.flags()...),
			Spec:  checkSpec((*check.BalanceReport)(nil)),
		}
	})
}

func runBalance(e *cli.Env, o *BalanceCheckOptions) error {
	return audit(e, &o.CheckOptions, true, func(opts check.Options, d *check.Decoded) (any, error) {
		if !d.HasGroup() {
			// As plan and inspect members: input of the wrong kind is a usage error.
			return nil, cli.UsageErrorf("check balance needs the Connect group's members: the input has none (read live with the workers' --group, or a snapshot with the group)")
		}
		in := d.BalanceInput()
		in.Capacity, in.Zones = opts.Capacity, opts.Zones
		return check.Balance(in), nil
	}, o.BalanceOptions.options)
}
