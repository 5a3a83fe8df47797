package commands

import (
	"errors"

	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/describe"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
)

// notFound carries a not-found error with its exit status.
func notFound(err error) error { return Exit(ExitNotFound, err) }

func inspectConnectorCommand() *cli.Command {
	return &cli.Command{
		Name:      "connector",
		Usage:     "one connector whole: config, target and actual state, owner, tasks, offsets, sink group and lag",
		ArgsUsage: "NAME",
		Description: "Everything the internal topics and the groups say about one connector, as\n" +
			"kubectl describe shows one object. A name the input does not know exits 1.\n\n" +
			"Examples:\n" +
			"  connectscope inspect connector jdbc-orders-source --from examples/cluster.snapshot.json\n" +
			"  connectscope -b broker:9092 inspect connector s3-orders-sink -o wide\n" +
			"  connectscope inspect connector debezium-inventory --from dump.jsonl --jq '.tasks[] | select(.state == \"FAILED\") | .trace'",
		Action: action(runInspectConnector),
	}
}

func runInspectConnector(c *cli.Context, g Globals) error {
	if c.NArg() != 1 {
		return UsageErrorf("inspect connector needs one connector NAME")
	}
	ds, err := loadDataset(c, g, readAll) // every topic and the groups: the connector whole
	if err != nil {
		return err
	}
	res, err := describe.Describe(decoded.Decode(ds, store.DecodeOptions{ShowSecrets: g.ShowSecrets}), c.Args().First())
	var nf *describe.NotFoundError
	if errors.As(err, &nf) {
		return notFound(err)
	}
	if err != nil {
		return InputError(err)
	}
	return emit(c, g, res)
}
