package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// TimeoutsOptions are `check timeouts`' inputs.
type TimeoutsOptions struct {
	CheckOptions
	TimingOptions
}

// NewCmdTimeouts is `check timeouts`; run replaces the run function in tests.
func NewCmdTimeouts(run func(*cli.Env, *TimeoutsOptions) error) *cli.Command {
	return cli.Verb(run, runTimeouts, func(o *TimeoutsOptions) *cli.Command {
		return &cli.Command{
			Name:  "timeouts",
			Usage: "check timeout, delay and protocol settings of worker files against each other, the broker and the sink consumers",
			Examples: `
connectscope check timeouts --worker-config 'workers/*.properties'
connectscope -b broker:9092 check timeouts --worker-config w1.properties --restart-time 90s`,
			Flags: append(o.CheckOptions.flags(), o.TimingOptions.flags()...),
			Spec:  checkSpec((*check.TimeoutsReport)(nil)),
			Args:  timeoutsArgs,
		}
	})
}

// timeoutsArgs asks for the worker files, what timeouts reads, before it
// refuses arguments.
func timeoutsArgs(e *cli.Env) error {
	if len(e.Globals.WorkerConfigs) == 0 {
		return cli.UsageErrorf("check timeouts needs worker config files: give --worker-config FILE (repeat it or quote a glob such as 'workers/*.properties')")
	}
	return e.NoArgs()
}

func runTimeouts(e *cli.Env, o *TimeoutsOptions) error {
	return audit(e, &o.CheckOptions, false, func(opts check.Options, d *check.Decoded) (any, error) {
		if err := workerVersions(e, d, &opts); err != nil {
			return nil, err
		}
		return usageRefused(check.Timeouts(check.TimeoutsFor(e.Globals.WorkerConfigs, d, opts)))
	}, o.TimingOptions.options)
}
