// Package inspect is the `inspect` noun: one file per verb (configs,
// status, offsets, connectors, members, sinks, connector). The views
// themselves are inspect/views's and inspect/group's.
package inspect

import (
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// NewCmdInspect is the `inspect` noun with its verbs.
func NewCmdInspect() *cli.Command {
	return &cli.Command{
		Name:  "inspect",
		Usage: "show what Connect stores (configs, status, offsets, connectors, members, sinks) and what its workers say (workers, plugins)",
		Examples: `
connectscope inspect connectors --from examples/cluster.snapshot.json
connectscope inspect configs --from dump.jsonl -o json --jq '.connectors[] | select(.consistent|not) | .name'
connectscope inspect status --from dump.jsonl -o wide
connectscope inspect offsets --from dump.jsonl --connector orders
connectscope -b broker:9092 inspect members
connectscope -b broker:9092 inspect workers`,
		Subcommands: []*cli.Command{
			NewCmdConfigs(nil),
			NewCmdStatus(nil),
			NewCmdOffsets(nil),
			NewCmdConnectors(nil),
			NewCmdMembers(nil),
			NewCmdSinks(nil),
			NewCmdConnector(nil),
			NewCmdWorker(nil),
			NewCmdWorkers(nil),
			NewCmdPlugins(nil),
			NewCmdRebalances(nil),
		},
	}
}

// Flag names of the inspect verbs.
const (
	flagConnector = "connector"
)

// ViewOptions are the flags the views share: --connector and --kafka-version.
type ViewOptions struct {
	Connector    string
	KafkaVersion kafkaversion.Version
	Filter       FilterOptions
}

func connectorFlag(dest *string) urfave.Flag {
	return &urfave.StringFlag{Name: flagConnector, Destination: dest,
		Usage: "only this connector `NAME` (records of all are still read and counted)"}
}

// kafkaVersionFlag picks the Kafka release whose readers the decoders follow
// where a rule changed between releases (inspect/store/status_version.go).
func kafkaVersionFlag(dest *kafkaversion.Version) urfave.Flag {
	return cli.KafkaVersionFlag(dest, "decode as the workers of Kafka `VERSION` do where a reader rule changed (e.g. 3.5.2; default: the newest behaviour)")
}

// viewSpec is the spec the views share: their topics, read live.
func viewSpec(topics cli.Topics, result any) cli.Spec {
	return cli.Spec{
		Read:   cli.ReadSpec{Topics: topics, SkipSinkGroups: true},
		Result: result,
		Values: map[string]cli.Candidates{flagConnector: cli.Connectors, flagType: filterValues[flagType], flagState: filterValues[flagState]},
	}
}

// decodeOptions are the decode options of the views.
func (v ViewOptions) decodeOptions(e *cli.Env) views.Options {
	return views.Options{ShowSecrets: e.Globals.ShowSecrets, Connector: v.Connector, KafkaVersion: v.KafkaVersion}
}

// loadDecoded reads the input of a view and wraps it for decoding.
func loadDecoded(e *cli.Env, v ViewOptions) (*views.Dataset, error) {
	ds, err := e.Dataset()
	if err != nil {
		return nil, err
	}
	return views.Decode(ds, v.decodeOptions(e)), nil
}

// loadStatusStreaming is loadDecoded for the status view: a kcat dump given
// with --from is decoded while it is read, so memory follows the distinct
// keys kept, not the size of the file.
func loadStatusStreaming(e *cli.Env, v ViewOptions) (*views.Dataset, error) {
	g := e.Globals
	if g.From == "" {
		return loadDecoded(e, v)
	}
	opts := v.decodeOptions(e)
	opts.Topic = g.Topics.Status
	return views.StreamStatus(opts, func(add func(*inspect.Record)) (*inspect.Dataset, bool, error) {
		return streamFrom(e, g.Topics.Status, add)
	})
}

func addProblems(counts *inspect.RecordCounts, problems *[]inspect.Problem, extra []inspect.Problem) {
	counts.Read += len(extra)
	counts.Problems += len(extra)
	*problems = append(*problems, extra...)
}

// connectorNotFound is the error for --connector NAME when the input holds
// no config, status or offsets record of NAME.
func connectorNotFound(name string, where ...string) error {
	return cli.NotFoundErrorf("connector %q not found in %s: `connectscope inspect connectors` lists the connectors", name, strings.Join(where, " or "))
}

// knownConnector says whether the records hold a config or a status of the
// connector d was decoded for (its --connector).
func knownConnector(d *views.Dataset) bool {
	if len(d.Configs().Connectors) > 0 {
		return true
	}
	st := d.Status()
	return len(st.Connectors) > 0 || len(st.Tasks) > 0
}

// connectorKind is the type (source, sink) of the connector d was decoded
// for (its --connector), from its config; "" when the config does not say.
func connectorKind(d *views.Dataset) string {
	for _, c := range d.Configs().Connectors {
		if t := views.ConnectorType(c.Config); t == "source" || t == "sink" {
			return t
		}
	}
	return ""
}

// wrongKind is the one line for a connector asked of a view that shows the
// other kind: what it is, and the view that fits (exit 4: there is no
// connector of that kind by the name).
func wrongKind(name, kind string) error {
	if kind == "source" {
		return cli.NotFoundErrorf("%s is a source connector: inspect sinks shows sink connectors' consumer groups; its progress is its offsets, in `connectscope inspect offsets --connector %s`", name, name)
	}
	return cli.NotFoundErrorf("%s is a sink connector: inspect offsets shows source connectors' offsets; its progress is its consumer group's commits, in `connectscope inspect sinks --connector %s`", name, name)
}
