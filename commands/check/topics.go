package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// TopicsOptions are `check topics`' inputs.
type TopicsOptions struct {
	CheckOptions
}

// NewCmdTopics is `check topics`; run replaces the run function in tests.
func NewCmdTopics(run func(*cli.Env, *TopicsOptions) error) *cli.Command {
	return cli.Verb(run, runTopics, func(o *TopicsOptions) *cli.Command {
		return &cli.Command{
			Name:  "topics",
			Usage: "check the internal topics: partitions, cleanup policy, replication, sharing between clusters",
			Examples: `
connectscope -b broker:9092 check topics
connectscope check topics --from cluster.snapshot.json -o json`,
			Flags: o.CheckOptions.flags(),
			Spec:  checkSpec((*check.TopicsReport)(nil)),
		}
	})
}

func runTopics(e *cli.Env, o *TopicsOptions) error {
	return audit(e, &o.CheckOptions, true, func(opts check.Options, d *check.Decoded) (any, error) {
		in := d.TopicsInput(opts.Group)
		in.Workers = e.Globals.WorkerConfigs
		return check.Topics(in), nil
	})
}
