package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/detail"
	"github.com/connectscope/connectscope/inspect/views"
)

// ConnectorOptions are `inspect connector NAME`'s inputs.
type ConnectorOptions struct {
	Name string // the argument
}

// NewCmdConnector is `inspect connector NAME`; run replaces the run
// function in tests.
func NewCmdConnector(run func(*cli.Env, *ConnectorOptions) error) *cli.Command {
	return cli.Verb(run, runConnector, func(o *ConnectorOptions) *cli.Command {
		return &cli.Command{
			Name:  "connector",
			Usage: "one connector whole: config, target and actual state, owner, tasks, offsets, sink group and lag",
			Description: `
Everything the internal topics and the groups say about one connector, as
kubectl describe shows one object. A name the input does not know is not found: exit 4.`,
			Examples: `
connectscope inspect connector jdbc-orders-source --from examples/cluster.snapshot.json
connectscope -b broker:9092 inspect connector s3-orders-sink -o wide
connectscope inspect connector debezium-inventory --from dump.jsonl --jq '.tasks[] | select(.state == "FAILED") | .trace'`,
			Spec: cli.Spec{
				Read:   cli.ReadSpec{}, // every topic and the groups: the connector whole
				Result: (*detail.Connector)(nil),
			},
			Arg: &cli.Arg{Into: &o.Name, Name: "NAME", Missing: "inspect connector needs one connector NAME", Values: cli.Connectors},
		}
	})
}

func runConnector(e *cli.Env, o *ConnectorOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	res, err := detail.Describe(views.Decode(ds, views.Options{ShowSecrets: e.Globals.ShowSecrets}), o.Name)
	return emit(e, res, err) // a name the input does not hold: exit 4
}
