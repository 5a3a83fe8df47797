package commands

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
)

const flagConnector = "connector"

func connectorFlag() cli.Flag {
	return &cli.StringFlag{Name: flagConnector, Usage: "only this connector `NAME` (records of all are still read and counted)"}
}

func init() {
	register(&cli.Command{
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
				Flags:  []cli.Flag{connectorFlag()},
				Action: action(runInspectConfigs),
			},
			{
				Name:  "status",
				Usage: "connector, task and topic statuses (status topic)",
				Description: "Examples:\n" +
					"  connectscope inspect status --from cluster.snapshot.json -o wide\n" +
					"  connectscope -b broker:9092 inspect status -o jsonl --jq 'select(.state==\"FAILED\") | .name'",
				Flags:  []cli.Flag{connectorFlag()},
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
				Flags:  []cli.Flag{connectorFlag()},
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
			inspectSinksCommand(),
		},
	})
}

// topicsOf is the dataset's records split by topic, with the records that
// fit no topic (and input entries that never became records) turned into
// problems, so every view accounts for everything it could have shown.
type topicsOf struct {
	config, status, offsets []inspect.Record
	unplaced                []inspect.Problem
	names                   inspect.TopicNames
	inputProblems           []inspect.Problem
}

func splitDataset(ds *inspect.Dataset) topicsOf {
	cfg, st, off, unknown := store.SplitTopics(ds.Records, ds.Topics)
	return topicsOf{config: cfg, status: st, offsets: off, unplaced: store.UnclassifiedProblems(unknown), names: ds.Topics, inputProblems: ds.Problems}
}

// extraProblems are the problems a view on topics must also report: records
// that fit no topic, and bad input entries of these topics or of none known.
func (t topicsOf) extraProblems(topics ...string) []inspect.Problem {
	out := append([]inspect.Problem{}, t.unplaced...)
	known := map[string]bool{t.names.Config: true, t.names.Status: true, t.names.Offset: true}
	mine := map[string]bool{}
	for _, n := range topics {
		mine[n] = true
	}
	for _, p := range t.inputProblems {
		if mine[p.Topic] || !known[p.Topic] {
			out = append(out, p)
		}
	}
	return out
}

func addProblems(counts *inspect.RecordCounts, problems *[]inspect.Problem, extra []inspect.Problem) {
	counts.Read += len(extra)
	counts.Problems += len(extra)
	*problems = append(*problems, extra...)
}

func decodeOptions(c *cli.Context, g Globals, topic string) store.DecodeOptions {
	return store.DecodeOptions{ShowSecrets: g.ShowSecrets, Topic: topic, Connector: c.String(flagConnector)}
}

// loadTopics reads the input of a topic view and sorts its records by topic.
func loadTopics(c *cli.Context, g Globals) (topicsOf, *inspect.Dataset, error) {
	if err := noArgs(c); err != nil {
		return topicsOf{}, nil, err
	}
	ds, err := loadDataset(c, g)
	if err != nil {
		return topicsOf{}, nil, err
	}
	return splitDataset(ds), ds, nil
}

func runInspectConfigs(c *cli.Context, g Globals) error {
	t, ds, err := loadTopics(c, g)
	if err != nil {
		return err
	}
	res := store.DecodeConfigs(t.config, decodeOptions(c, g, ds.Topics.Config))
	if name := c.String(flagConnector); name != "" && len(res.Connectors) == 0 && !knownConnector(t, name) {
		return connectorNotFound(name, ds.Topics.Config, ds.Topics.Status)
	}
	addProblems(&res.Records, &res.Problems, t.extraProblems(ds.Topics.Config))
	return emit(c, g, res)
}

func runInspectStatus(c *cli.Context, g Globals) error {
	t, ds, err := loadTopics(c, g)
	if err != nil {
		return err
	}
	res := store.DecodeStatus(t.status, decodeOptions(c, g, ds.Topics.Status))
	if name := c.String(flagConnector); name != "" && len(res.Connectors)+len(res.Tasks) == 0 && !knownConnector(t, name) {
		return connectorNotFound(name, ds.Topics.Config, ds.Topics.Status)
	}
	addProblems(&res.Records, &res.Problems, t.extraProblems(ds.Topics.Status))
	return emit(c, g, res)
}

// runInspectOffsets goes through loadOffsets, which streams a live offsets
// topic into the decoder instead of holding every record first.
func runInspectOffsets(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	res, err := loadOffsets(c, g, decodeOptions(c, g, g.Topics.Offset))
	if err != nil {
		return err
	}
	return emit(c, g, res)
}

func runInspectConnectors(c *cli.Context, g Globals) error {
	t, ds, err := loadTopics(c, g)
	if err != nil {
		return err
	}
	cfg := store.DecodeConfigs(t.config, decodeOptions(c, g, ds.Topics.Config))
	st := store.DecodeStatus(t.status, decodeOptions(c, g, ds.Topics.Status))
	res := store.Connectors(cfg, st)
	if name := c.String(flagConnector); name != "" {
		kept := res.Connectors[:0]
		for _, s := range res.Connectors {
			if s.Name == name {
				kept = append(kept, s)
			}
		}
		res.Connectors = kept
		if len(kept) == 0 {
			return connectorNotFound(name, ds.Topics.Config, ds.Topics.Status)
		}
	}
	addProblems(&res.Records, &res.Problems, t.extraProblems(ds.Topics.Config, ds.Topics.Status))
	return emit(c, g, res)
}

func runInspectMembers(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	ds, err := loadDataset(c, g)
	if err != nil {
		return err
	}
	if ds.Group == nil && g.From != "" {
		return UsageErrorf("%s holds no Connect group description (a kcat dump holds topic records only); inspect members needs a snapshot file or a live cluster", g.From)
	}
	res := group.Members(ds.Group)
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
