package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// AllOptions are `check all`'s inputs: every check's flags.
type AllOptions struct {
	CheckOptions
	TimingOptions
	BalanceOptions
	Target check.Protocol
}

// NewCmdAll is `check all`; run replaces the run function in tests.
func NewCmdAll(run func(*cli.Env, *AllOptions) error) *cli.Command {
	return cli.Verb(run, runAll, func(o *AllOptions) *cli.Command {
		flags := append(append(o.CheckOptions.flags(), o.TimingOptions.flags()...), o.BalanceOptions.flags()...)
		return &cli.Command{
			Name:  "all",
			Usage: "run every check whose inputs are available: one report, one exit status",
			Examples: `
connectscope check all --worker-config 'workers/*.properties' --fail-on warn
connectscope check all --from cluster.snapshot.json -o jsonl --jq '.rule'`,
			Flags: append(flags, targetFlag(&o.Target, "upgrade target protocol: `eager|compatible|sessioned`")),
			Spec:  checkSpec((*check.AllReport)(nil)),
		}
	})
}

// options are all the checks' options from the flags.
func (o *AllOptions) options(e *cli.Env) (check.Options, check.Severity, error) {
	opts, failOn, err := o.CheckOptions.options(e)
	if err != nil {
		return opts, failOn, err
	}
	if err := o.TimingOptions.options(&opts); err != nil {
		return opts, failOn, err
	}
	opts.Target = o.Target
	if err := o.BalanceOptions.options(&opts); err != nil {
		return opts, failOn, err
	}
	return opts, failOn, nil
}

func runAll(e *cli.Env, o *AllOptions) error {
	g := e.Globals
	// all uses every input a single check would: a worker file's
	// bootstrap.servers reads the cluster, as `check topics` does with it.
	// When only the file points there and the cluster cannot be read, the
	// checks that need no cluster still run, with a note saying why the
	// others did not (an explicit -b or --from must work).
	implied := g.Live() && g.From == "" && !g.Explicit(cli.FlagBootstrap)
	opts, failOn, err := o.options(e)
	if err != nil {
		return err
	}
	d, err := checkData(e, o.CheckOptions, g.Live())
	var unread error
	if err != nil && implied && e.Ctx.Err() == nil && cli.IsInputError(err) {
		unread = err
		d, err = checkData(e, o.CheckOptions, false)
	}
	if err != nil {
		return err
	}
	if len(g.WorkerConfigs) == 0 && d == nil {
		return cli.UsageErrorf("check all needs something to check: --worker-config FILE, --from FILE or -b HOST:PORT")
	}
	if err := workerVersions(e, d, &opts); err != nil {
		return err
	}
	rep, err := check.All(check.AllInput{Workers: g.WorkerConfigs, Data: d, Options: opts, ClusterErr: unread})
	if err != nil {
		return cli.Exit(cli.ExitUsage, err)
	}
	rep.NameSettings(cli.FlagName)
	return finish(e, o.CheckOptions, rep, failOn)
}
