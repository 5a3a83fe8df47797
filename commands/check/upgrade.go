package check

import (
	"strings"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/rest"
	urfave "github.com/urfave/cli/v2"
)

// UpgradeOptions are `check upgrade`'s inputs.
type UpgradeOptions struct {
	CheckOptions
	Target      check.Protocol
	ExactlyOnce string
	// To is a Kafka release to check the cluster against (--to 4.x);
	// unknown when not given.
	To kafkaversion.Version
	cli.RESTOptions
}

// flagTo names the release of `check upgrade --to`.
const flagTo = "to"

// NewCmdUpgrade is `check upgrade`; run replaces the run function in tests.
func NewCmdUpgrade(run func(*cli.Env, *UpgradeOptions) error) *cli.Command {
	return cli.Verb(run, runUpgrade, func(o *UpgradeOptions) *cli.Command {
		return &cli.Command{
			Name:  "upgrade",
			Usage: "plan a rolling change of connect.protocol (and exactly.once.source.support) without ever worsening the group's protocol",
			Examples: `
connectscope check upgrade --worker-config 'workers/*.properties' --target sessioned
connectscope -b broker:9092 check upgrade --worker-config 'workers/*.properties' --exactly-once enabled
connectscope -b broker:9092 check upgrade --to 4.x    # keys 4.0 removed, plugins a worker lacks, KIP-891 pins, …`,
			Flags: append(append(o.CheckOptions.flags(),
				targetFlag(&o.Target, "protocol the group should run: `eager|compatible|sessioned`"),
				&urfave.StringFlag{Name: flagExactlyOnce, Destination: &o.ExactlyOnce, Usage: "also roll exactly.once.source.support to `disabled|preparing|enabled` (two rolls when enabling)"},
				cli.ValueFlag(flagTo, &o.To, check.ParseRelease, "also check the cluster against Kafka `RELEASE` (4.x, 4.0…4.4, 5.0): the config topic, the internal topics, the broker and every worker's REST API (rules U1-U13)"),
			), o.RESTOptions.Flags()...),
			Spec: checkSpec((*check.UpgradeReport)(nil)),
		}
	})
}

// upgradeOptions reads upgrade's own flags into opts.
func (o *UpgradeOptions) upgradeOptions(opts *check.Options) error {
	opts.Target = o.Target
	switch strings.ToLower(o.ExactlyOnce) {
	case "", "disabled", "preparing", "enabled":
		opts.ExactlyOnce = o.ExactlyOnce
	default:
		return cli.UsageErrorf("--exactly-once %q: use disabled, preparing or enabled", o.ExactlyOnce)
	}
	return nil
}

func runUpgrade(e *cli.Env, o *UpgradeOptions) error {
	return audit(e, &o.CheckOptions, o.To.Known, func(opts check.Options, d *check.Decoded) (any, error) {
		g := e.Globals
		if !o.To.Known && len(g.WorkerConfigs) == 0 && !d.HasGroup() {
			return nil, cli.UsageErrorf("check upgrade needs --worker-config files and/or the group (--from FILE or -b HOST:PORT)")
		}
		var rel *check.ReleaseReport
		var err error
		if o.To.Known {
			rel, err = releaseReport(e, o, d, &opts)
		} else {
			err = workerVersions(e, d, &opts)
		}
		if err != nil {
			return nil, err
		}
		rep, err := check.Upgrade(check.UpgradeFor(g.WorkerConfigs, d, opts))
		if err != nil {
			return nil, cli.Exit(cli.ExitUsage, err)
		}
		if rel != nil {
			rep.AddRelease(rel)
		}
		return rep, nil
	}, o.upgradeOptions)
}

// releaseReport asks every member's REST API (versions, health, plugins)
// and checks the cluster against --to; the versions the workers gave feed
// the protocol plan too, unless --kafka-version says them.
func releaseReport(e *cli.Env, o *UpgradeOptions, d *check.Decoded, opts *check.Options) (*check.ReleaseReport, error) {
	client, err := o.RESTOptions.Client(e)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	infos := check.AskWorkers(e.Ctx, client, d, rest.Calls{Health: true, Plugins: true})
	if err := e.Ctx.Err(); err != nil {
		return nil, err
	}
	if !opts.KafkaVersion.Known {
		opts.WorkerVersions, opts.WorkerFindings = check.WorkerVersions(infos, e.Globals.WorkerConfigs)
	}
	rel, err := check.Release(d.ReleaseInput(o.To, e.Globals.WorkerConfigs, infos))
	if err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	return rel, nil
}
