package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// SinksOptions are `inspect sinks`' inputs.
type SinksOptions struct {
	ViewOptions
}

// Flags binds the flags of a view without states (a sink group's rows have
// none).
func (o *SinksOptions) Flags() []urfave.Flag { return o.statelessFlags() }

// NewCmdSinks is `inspect sinks`; run replaces the run function in tests.
func NewCmdSinks(run func(*cli.Env, *SinksOptions) error) *cli.Command {
	return cli.NewVerb(run, runSinks, cli.Command{
		Name:  "sinks",
		Usage: "sink connectors' consumer groups: state, assignor, which task holds which partition, lag",
		Description: `
Each sink connector's tasks consume as the group connect-NAME (or the connector's
consumer.override.group.id). Lag is the partition's end offset minus the group's commit.`,
		Examples: `
connectscope -b broker:9092 inspect sinks
connectscope -b broker:9092 inspect sinks --connector orders-sink -o wide
connectscope inspect sinks --from cluster.snapshot.json -o json --jq '.sinks[] | select(.lag > 1000) | .connector'`,
		Spec: cli.Spec{
			Read:   cli.ReadSpec{Topics: cli.ConfigTopic}, // sink connectors are found in their configs
			Result: (*views.SinksResult)(nil),
			Values: map[string]cli.Candidates{flagConnector: cli.Connectors, flagType: filterValues[flagType]},
			Inputs: filterInputs,
		},
	})
}

func runSinks(e *cli.Env, o *SinksOptions) error {
	return showView(e, o.ViewOptions, loadDecoded, cli.ConfigTopic|cli.StatusTopic, (*views.Dataset).SinksView)
}
