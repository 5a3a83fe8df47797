package commands

import (
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/urfave/cli/v2"
)

// `inspect sinks` is a subcommand of the inspect command built in
// inspect.go.
var inspectSinksCommand = &cli.Command{
	Name:  "sinks",
	Usage: "sink connectors' consumer groups: state, assignor, which task holds which partition, lag",
	Description: "Each sink connector's tasks consume as the group connect-NAME (or the connector's\n" +
		"consumer.override.group.id). Lag is the partition's end offset minus the group's commit.\n\n" +
		"Examples:\n" +
		"  connectscope -b broker:9092 inspect sinks\n" +
		"  connectscope -b broker:9092 inspect sinks --connector orders-sink -o wide\n" +
		"  connectscope inspect sinks --from cluster.snapshot.json -o json --jq '.sinks[] | select(.lag > 1000) | .connector'",
	Flags:  []cli.Flag{connectorFlag()},
	Action: action(runInspectSinks),
}

func runInspectSinks(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	ds, err := loadDataset(c, g, readSinks)
	if err != nil {
		return err
	}
	return emit(c, g, group.Sinks(ds, c.String(flagConnector)))
}
