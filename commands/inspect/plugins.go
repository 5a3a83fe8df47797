package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/inspect/workers"
)

// PluginsOptions are `inspect plugins`' inputs.
type PluginsOptions struct {
	cli.RESTOptions
}

// NewCmdPlugins is `inspect plugins`; run replaces the run function in tests.
func NewCmdPlugins(run func(*cli.Env, *PluginsOptions) error) *cli.Command {
	return cli.NewVerb(run, runPlugins, cli.Command{
		Name:  "plugins",
		Usage: "the plugin matrix: which worker has which plugin at which version, and the classes and KIP-891 pins of the config topic some worker lacks",
		Examples: `
connectscope -b broker:9092 inspect plugins
connectscope -b broker:9092 inspect plugins -o json --jq '.gaps[] | "\(.connector) on \(.worker): \(.reason)"'`,
		Spec: askSpec((*workers.Matrix)(nil)),
	})
}

func runPlugins(e *cli.Env, o *PluginsOptions) error {
	return ask(e, &o.RESTOptions, func(client *rest.Client, m *views.MembersResult, d *views.Dataset) error {
		return answered(e, workers.AskPlugins(e.Ctx, client, m, d.Configs()))
	})
}
