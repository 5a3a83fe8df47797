package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/views"
)

// ConnectorsOptions are `inspect connectors`' inputs.
type ConnectorsOptions struct {
	ViewOptions
}

// NewCmdConnectors is `inspect connectors`; run replaces the run function
// in tests.
func NewCmdConnectors(run func(*cli.Env, *ConnectorsOptions) error) *cli.Command {
	return cli.NewVerb(run, runConnectors, cli.Command{
		Name:  "connectors",
		Usage: "one line per connector: class, type, target and actual state, tasks, consistency",
		Examples: `
connectscope inspect connectors --from examples/cluster.snapshot.json
connectscope -b broker:9092 inspect connectors -o wide`,
		Spec: viewSpec(cli.ConfigTopic|cli.StatusTopic, (*views.ConnectorsResult)(nil)),
	})
}

// runConnectors streams the status topic; the configs are kept.
func runConnectors(e *cli.Env, o *ConnectorsOptions) error {
	return showView(e, o.ViewOptions, loadStatusStreaming, cli.ConfigTopic, (*views.Dataset).ConnectorsView)
}
