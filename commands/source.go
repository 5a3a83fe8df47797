package commands

import (
	"runtime/debug"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
)

// loadDataset reads what the global flags point at: --from FILE (a snapshot
// or a kcat -J dump) or a live cluster (-b, or --worker-config with
// bootstrap.servers).
func loadDataset(c *cli.Context, g Globals) (*inspect.Dataset, error) {
	if g.From != "" {
		ds, err := source.LoadFile(g.From, g.Topics)
		if err != nil {
			return nil, InputError(err)
		}
		return ds, nothingDecoded(g.From, ds)
	}
	if g.Live() {
		return loadLive(c, g)
	}
	return nil, UsageErrorf("nothing to read: give --from FILE (a snapshot or kcat -J dump), -b HOST:PORT, or --worker-config FILE")
}

// liveOptions builds the live read's options from the resolved globals.
func liveOptions(g Globals) (live.Options, error) {
	conn, err := g.ConnOptions()
	if err != nil {
		return live.Options{}, err
	}
	// A live read holds the topics' bytes and decodes them in one go; a
	// collector that lets the heap grow by half, not double, keeps peak
	// memory near what is really held (BENCHMARKS.md: under 3x the topic).
	debug.SetGCPercent(liveGCPercent)
	return live.Options{Conn: conn, Group: g.Group, Topics: g.Topics, Isolation: g.Isolation}, nil
}

// liveGCPercent is the collector's target for the rest of a command that
// reads a live cluster.
const liveGCPercent = 50

// loadLive reads the cluster. Commands that show or plan from ownership wait
// a little for a rebalancing group to settle; `inspect members` refuses to
// print a rebalancing group's half-known ownership (exit 3, one line). Views
// read only the topics and groups they show; everything else (snapshot,
// plan, check) reads it all.
func loadLive(c *cli.Context, g Globals) (*inspect.Dataset, error) {
	opts, err := liveOptions(g)
	if err != nil {
		return nil, err
	}
	name := commandPath(c)
	needsOwnership := name == "inspect members" || strings.HasPrefix(name, "plan ")
	if needsOwnership {
		opts.GroupSettle = min(5*time.Second, g.Timeout/2)
	}
	// Read only the topics the view shows: a view of the status topic has no
	// use for a million offsets records.
	t := g.Topics
	switch name {
	case "inspect configs":
		opts.Read, opts.SkipSinkGroups = []string{t.Config}, true
	case "inspect status":
		opts.Read, opts.SkipSinkGroups = []string{t.Status}, true
	case "inspect offsets":
		opts.Read, opts.SkipSinkGroups = []string{t.Offset}, true
	case "inspect connectors":
		opts.Read, opts.SkipSinkGroups = []string{t.Config, t.Status}, true
	case "inspect members":
		// The group, and the config topic to tell which members missed a
		// record that rebalances from those that only missed a session key.
		opts.Read, opts.SkipSinkGroups = []string{t.Config}, true
	case "inspect sinks":
		opts.Read = []string{t.Config} // sink connectors are found in their configs
	}
	if strings.HasPrefix(name, "plan ") { // plans start from the configs and the group
		opts.Read, opts.SkipSinkGroups = []string{t.Config}, true
	}
	ds, err := live.Read(c.Context, opts)
	if err != nil {
		return nil, InputError(err)
	}
	if name == "inspect members" && inspect.GroupRebalancing(ds.Group) {
		return nil, InputError(live.GroupUnsettledError(ds.Group))
	}
	return ds, nil
}

// commandPath is the command's name below the application: "inspect members".
func commandPath(c *cli.Context) string {
	var parts []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name {
			parts = append([]string{ctx.Command.Name}, parts...)
		}
	}
	return strings.Join(parts, " ")
}

// loadOffsets gives `inspect offsets` its decoded result. From a file the
// dataset's offsets records are decoded as usual; live, the offsets topic is
// streamed into the decoder as it is read, so its records are never all
// held at once (a million small records cost more as Record structs than
// as bytes).
func loadOffsets(c *cli.Context, g Globals, opts store.DecodeOptions) (*store.OffsetsResult, error) {
	if !g.Live() || g.From != "" {
		ds, err := loadDataset(c, g)
		if err != nil {
			return nil, err
		}
		t := splitDataset(ds)
		res := store.DecodeOffsets(t.offsets, opts)
		if opts.Connector != "" && len(res.Offsets) == 0 && !knownConnector(t, opts.Connector) {
			return nil, connectorNotFound(opts.Connector, ds.Topics.Config, ds.Topics.Status, ds.Topics.Offset)
		}
		addProblems(&res.Records, &res.Problems, t.extraProblems(ds.Topics.Offset))
		return res, nil
	}
	liveOpts, err := liveOptions(g)
	if err != nil {
		return nil, err
	}
	dec := store.NewOffsetsDecoder(opts)
	liveOpts.Read, liveOpts.SkipSinkGroups = []string{g.Topics.Offset}, true
	liveOpts.Stream, liveOpts.StreamTopic = dec.Add, g.Topics.Offset
	if _, err := live.Read(c.Context, liveOpts); err != nil {
		return nil, InputError(err)
	}
	res := dec.Result()
	if opts.Connector != "" && len(res.Offsets) == 0 {
		// Only the offsets topic is read live: a connector without offsets
		// (a sink, or a source that never committed) reads as not found.
		return nil, connectorNotFound(opts.Connector, g.Topics.Offset)
	}
	return res, nil
}
