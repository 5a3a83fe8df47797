package commands

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
)

const flagConnector = "connector"

func connectorFlag() cli.Flag {
	return &cli.StringFlag{Name: flagConnector, Usage: "only this connector `NAME` (records of all are still read and counted)"}
}

// inspectCommand is the `inspect` command.
var inspectCommand = &cli.Command{
	Name:  "inspect",
	Usage: "show what Connect stores: configs, status, offsets, connectors, members, sinks",
	Description: "Examples:\n" +
		"  connectscope inspect connectors --from examples/cluster.snapshot.json\n" +
		"  connectscope inspect configs --from dump.jsonl -o json --jq '.connectors[] | select(.consistent|not) | .name'\n" +
		"  connectscope inspect status --from dump.jsonl -o wide\n" +
		"  connectscope inspect offsets --from dump.jsonl --connector orders\n" +
		"  connectscope -b broker:9092 inspect members",
	Subcommands: []*cli.Command{
		{
			Name:  "configs",
			Usage: "connector and task configs, target states, commits and consistency (config topic)",
			Description: "Examples:\n" +
				"  connectscope inspect configs --from cluster.snapshot.json\n" +
				"  connectscope -b broker:9092 inspect configs --connector orders -o yaml",
			Flags:  []cli.Flag{connectorFlag(), inspectVersionFlag()},
			Action: action(runInspectConfigs),
		},
		{
			Name:  "status",
			Usage: "connector, task and topic statuses (status topic)",
			Description: "Examples:\n" +
				"  connectscope inspect status --from cluster.snapshot.json -o wide\n" +
				"  connectscope -b broker:9092 inspect status -o jsonl --jq 'select(.state==\"FAILED\") | .name'",
			Flags:  []cli.Flag{connectorFlag(), inspectVersionFlag()},
			Action: action(runInspectStatus),
		},
		{
			Name:  "offsets",
			Usage: "source connector offsets (offsets topic)",
			Description: "Examples:\n" +
				"  connectscope inspect offsets --from cluster.snapshot.json --connector orders\n" +
				"  connectscope -b broker:9092 inspect offsets -o json",
			Flags:  []cli.Flag{connectorFlag()},
			Action: action(runInspectOffsets),
		},
		{
			Name:  "connectors",
			Usage: "one line per connector: class, type, target and actual state, tasks, consistency",
			Description: "Examples:\n" +
				"  connectscope inspect connectors --from examples/cluster.snapshot.json\n" +
				"  connectscope -b broker:9092 inspect connectors -o wide",
			Flags:  []cli.Flag{connectorFlag(), inspectVersionFlag()},
			Action: action(runInspectConnectors),
		},
		{
			Name:  "members",
			Usage: "the Connect group: protocol, leader, and what each worker owns and was assigned",
			Description: "Examples:\n" +
				"  connectscope -b broker:9092 inspect members\n" +
				"  connectscope inspect members --from cluster.snapshot.json -o wide",
			Action: action(runInspectMembers),
		},
		inspectSinksCommand,
		inspectConnectorCommand(),
	},
}

func addProblems(counts *inspect.RecordCounts, problems *[]inspect.Problem, extra []inspect.Problem) {
	counts.Read += len(extra)
	counts.Problems += len(extra)
	*problems = append(*problems, extra...)
}

// viewOptions are the decode options of the inspect views: --show-secrets,
// --connector and --kafka-version.
func viewOptions(c *cli.Context, g Globals) store.DecodeOptions {
	return store.DecodeOptions{ShowSecrets: g.ShowSecrets, Connector: c.String(flagConnector), KafkaVersion: inspectKafkaVersion(c)}
}

// loadDecoded reads the input of a view and wraps it for decoding.
func loadDecoded(c *cli.Context, g Globals, spec readSpec) (*decoded.Dataset, error) {
	if err := noArgs(c); err != nil {
		return nil, err
	}
	ds, err := loadDataset(c, g, spec)
	if err != nil {
		return nil, err
	}
	return decoded.Decode(ds, viewOptions(c, g)), nil
}

// loadStatusStreaming is loadDecoded for the status view: a kcat dump given
// with --from is decoded while it is read, so memory follows the distinct
// keys kept, not the size of the file.
func loadStatusStreaming(c *cli.Context, g Globals, spec readSpec) (*decoded.Dataset, error) {
	if g.From == "" {
		return loadDecoded(c, g, spec)
	}
	if err := noArgs(c); err != nil {
		return nil, err
	}
	opts := viewOptions(c, g)
	opts.Topic = g.Topics.Status
	dec := store.NewStatusDecoder(opts)
	ds, streamed, err := streamFrom(g, g.Topics.Status, dec.Add)
	if err != nil {
		return nil, err
	}
	d := decoded.Decode(ds, viewOptions(c, g))
	if streamed {
		d.WithStatus(dec.Result())
	}
	return d, nil
}

func runInspectConfigs(c *cli.Context, g Globals) error {
	d, err := loadDecoded(c, g, readConfigs)
	if err != nil {
		return err
	}
	res := d.Configs()
	if name := c.String(flagConnector); name != "" && !knownConnector(d) {
		return connectorNotFound(name, d.Topics.Config, d.Topics.Status)
	}
	addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Config))
	return emit(c, g, res)
}

func runInspectStatus(c *cli.Context, g Globals) error {
	d, err := loadStatusStreaming(c, g, readStatus)
	if err != nil {
		return err
	}
	res := d.Status()
	if name := c.String(flagConnector); name != "" && !knownConnector(d) {
		return connectorNotFound(name, d.Topics.Config, d.Topics.Status)
	}
	addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Status))
	return emit(c, g, res)
}

// runInspectOffsets goes through loadOffsets, which streams a live offsets
// topic into the decoder instead of holding every record first.
func runInspectOffsets(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	res, err := loadOffsets(c, g)
	if err != nil {
		return err
	}
	return emit(c, g, res)
}

func runInspectConnectors(c *cli.Context, g Globals) error {
	d, err := loadStatusStreaming(c, g, readConnectors) // the status topic streams; configs are kept
	if err != nil {
		return err
	}
	res := d.Connectors()
	if name := c.String(flagConnector); name != "" {
		kept := res.Connectors[:0]
		for _, s := range res.Connectors {
			if s.Name == name {
				kept = append(kept, s)
			}
		}
		res.Connectors = kept
		if len(kept) == 0 {
			return connectorNotFound(name, d.Topics.Config, d.Topics.Status)
		}
	}
	addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Config, d.Topics.Status))
	return emit(c, g, res)
}

func runInspectMembers(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	ds, err := loadDataset(c, g, readMembers)
	if err != nil {
		return err
	}
	if ds.Group == nil && g.From != "" {
		return UsageErrorf("%s holds no Connect group description (a kcat dump holds topic records only); inspect members needs a snapshot file or a live cluster", g.From)
	}
	res := group.Members(nil) // "no group description was read"
	if m := decoded.Decode(ds, viewOptions(c, g)).Members(); m != nil {
		res = *m
	}
	res.NameSettings(flagName)
	if err := groupNotFound(res); err != nil {
		return err
	}
	if end, ok := ds.EndOffsets[ds.Topics.Config][0]; ok {
		res.ConfigEnd(end, ds.Isolation == live.ReadCommitted)
		if configRead(ds) {
			res.ConfigRejoin(group.ConfigRejoinFrom(ds.Records, ds.Topics.Config))
		}
	}
	return emit(c, g, res)
}

// configRead says whether the dataset holds the config topic's records, all
// of them up to its end offset (a snapshot or a live read does; a dump may
// not, and then nothing is assumed).
func configRead(ds *inspect.Dataset) bool {
	end, ok := ds.EndOffsets[ds.Topics.Config][0]
	if !ok {
		return false
	}
	last := int64(-1)
	for _, r := range ds.Records {
		if r.Topic == ds.Topics.Config {
			last = max(last, r.Offset)
		}
	}
	return end == 0 || last >= 0
}
