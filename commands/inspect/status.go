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
	return cli.NewVerb(run, runStatus, cli.Command{
		Name:  "status",
		Usage: "connector, task and topic statuses (status topic)",
		Examples: `
connectscope inspect status --from cluster.snapshot.json -o wide
connectscope -b broker:9092 inspect status -o jsonl --jq 'select(.state=="FAILED") | .name'`,
		Spec: viewSpec(cli.StatusTopic, (*views.StatusResult)(nil)),
	})
}

func runStatus(e *cli.Env, o *StatusOptions) error {
	return showView(e, o.ViewOptions, loadStatusStreaming, cli.ConfigTopic, (*views.Dataset).StatusView)
}
