package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/views"
)

// StatusOptions are `inspect status`' inputs.
type StatusOptions struct {
	ViewOptions
}

// NewCmdStatus is `inspect status`; run replaces the run function in tests.
func NewCmdStatus(run func(*cli.Env, *StatusOptions) error) *cli.Command {
	return cli.Verb(run, runStatus, func(o *StatusOptions) *cli.Command {
		return &cli.Command{
			Name:  "status",
			Usage: "connector, task and topic statuses (status topic)",
			Examples: `
connectscope inspect status --from cluster.snapshot.json -o wide
connectscope -b broker:9092 inspect status -o jsonl --jq 'select(.state=="FAILED") | .name'`,
			Flags: o.flags(),
			Spec:  viewSpec(cli.StatusTopic, (*views.StatusResult)(nil)),
		}
	})
}

func runStatus(e *cli.Env, o *StatusOptions) error {
	d, err := loadStatusStreaming(e, o.ViewOptions)
	if err != nil {
		return err
	}
	return show(e, o.Filter.query(e, cli.ConfigTopic), d.StatusView)
}
