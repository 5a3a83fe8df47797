package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/views"
)

// ConfigsOptions are `inspect configs`' inputs.
type ConfigsOptions struct {
	ViewOptions
}

// NewCmdConfigs is `inspect configs`; run replaces the run function in tests.
func NewCmdConfigs(run func(*cli.Env, *ConfigsOptions) error) *cli.Command {
	return cli.NewVerb(run, runConfigs, cli.Command{
		Name:  "configs",
		Usage: "connector and task configs, target states, commits and consistency (config topic)",
		Examples: `
connectscope inspect configs --from cluster.snapshot.json
connectscope -b broker:9092 inspect configs --connector orders -o yaml`,
		Spec: viewSpec(cli.ConfigTopic, (*views.ConfigsResult)(nil)),
	})
}

func runConfigs(e *cli.Env, o *ConfigsOptions) error {
	return showView(e, o.ViewOptions, loadDecoded, cli.StatusTopic, (*views.Dataset).ConfigsView)
}
