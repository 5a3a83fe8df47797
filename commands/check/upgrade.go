package check

import (
	"strings"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	urfave "github.com/urfave/cli/v2"
)

// UpgradeOptions are `check upgrade`'s inputs.
type UpgradeOptions struct {
	CheckOptions
	Target      string
	ExactlyOnce string
}

// NewCmdUpgrade is `check upgrade`; run replaces the run function in tests.
func NewCmdUpgrade(run func(*cli.Env, *UpgradeOptions) error) *cli.Command {
	o := &UpgradeOptions{}
	if run == nil {
		run = runUpgrade
	}
	return &cli.Command{
		Name:  "upgrade",
		Usage: "plan a rolling change of connect.protocol (and exactly.once.source.support) without ever worsening the group's protocol",
		Description: "Examples:\n" +
			"  connectscope check upgrade --worker-config 'workers/*.properties' --target sessioned\n" +
			"  connectscope -b broker:9092 check upgrade --worker-config 'workers/*.properties' --exactly-once enabled",
		Flags: append(o.CheckOptions.flags(),
			targetFlag(&o.Target, "protocol the group should run: `eager|compatible|sessioned`"),
			&urfave.StringFlag{Name: flagExactlyOnce, Destination: &o.ExactlyOnce, Usage: "also roll exactly.once.source.support to `disabled|preparing|enabled` (two rolls when enabling)"},
		),
		Spec: checkSpec((*check.UpgradeReport)(nil)),
		Run:  func(e *cli.Env) error { return run(e, o) },
	}
}

func runUpgrade(e *cli.Env, o *UpgradeOptions) error {
	if err := e.NoArgs(); err != nil {
		return err
	}
	opts, failOn, err := o.CheckOptions.options(e)
	if err != nil {
		return err
	}
	if err := checkTarget(o.Target); err != nil {
		return err
	}
	opts.Target = o.Target
	switch strings.ToLower(o.ExactlyOnce) {
	case "", "disabled", "preparing", "enabled":
		opts.ExactlyOnce = o.ExactlyOnce
	default:
		return cli.UsageErrorf("--exactly-once %q: use disabled, preparing or enabled", o.ExactlyOnce)
	}
	d, err := checkData(e, o.CheckOptions, false)
	if err != nil {
		return err
	}
	g := e.Globals
	if len(g.WorkerConfigs) == 0 && !d.HasGroup() {
		return cli.UsageErrorf("check upgrade needs --worker-config files and/or the group (--from FILE or -b HOST:PORT)")
	}
	workerVersions(e, d, &opts)
	rep, err := check.Upgrade(check.UpgradeFor(g.WorkerConfigs, d, opts))
	if err != nil {
		return cli.Exit(cli.ExitUsage, err)
	}
	return finish(e, o.CheckOptions, rep, failOn)
}
