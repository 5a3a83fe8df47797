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
	return cli.Verb(run, runConnectors, func(o *ConnectorsOptions) *cli.Command {
		return &cli.Command{
			Name:  "connectors",
			Usage: "one line per connector: class, type, target and actual state, tasks, consistency",
			Examples: `
connectscope inspect connectors --from examples/cluster.snapshot.json
connectscope -b broker:9092 inspect connectors -o wide`,
			Flags: o.flags(),
			Spec:  viewSpec(cli.ConfigTopic|cli.StatusTopic, (*views.ConnectorsResult)(nil)),
		}
	})
}

func runConnectors(e *cli.Env, o *ConnectorsOptions) error {
	d, err := loadStatusStreaming(e, o.ViewOptions) // the status topic streams; configs are kept
	if err != nil {
		return err
	}
	return show(e, o.Filter.query(e, cli.ConfigTopic), d.ConnectorsView)
}
