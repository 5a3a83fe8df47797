package commands

import (
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
)

// readSpec is what a command reads from a live cluster; from a file the
// whole file is read whatever the spec. The zero spec reads everything
// (snapshot, check).
type readSpec struct {
	// topics picks the internal topics to read; nil reads all three.
	topics func(inspect.TopicNames) []string
	// skipSinkGroups leaves the sink connectors' consumer groups unread.
	skipSinkGroups bool
	// settleGroup waits a little for a rebalancing group to settle
	// (commands that show or plan from ownership).
	settleGroup bool
	// needsStableGroup refuses a group that is still rebalancing (exit 3,
	// one line) instead of showing half-known ownership.
	needsStableGroup bool
}

// Read specs of the commands that do not read everything.
var (
	readConfigs = readSpec{topics: func(t inspect.TopicNames) []string { return []string{t.Config} }, skipSinkGroups: true}
	readStatus  = readSpec{topics: func(t inspect.TopicNames) []string { return []string{t.Status} }, skipSinkGroups: true}
	// readConfigsAndStatus tells whether a connector exists (offsets of a
	// connector that has none).
	readConfigsAndStatus = readSpec{topics: func(t inspect.TopicNames) []string { return []string{t.Config, t.Status} }, skipSinkGroups: true}
	readConnectors       = readSpec{topics: func(t inspect.TopicNames) []string { return []string{t.Config, t.Status} }, skipSinkGroups: true}
	// The group, and the config topic to tell which members missed a record
	// that rebalances from those that only missed a session key.
	readMembers = readSpec{topics: readConfigs.topics, skipSinkGroups: true, settleGroup: true, needsStableGroup: true}
	// Sink connectors are found in their configs.
	readSinks = readSpec{topics: readConfigs.topics}
	// Plans start from the configs and the group.
	readPlan = readSpec{topics: readConfigs.topics, skipSinkGroups: true, settleGroup: true}
	readAll  = readSpec{}
)

// loadDataset reads what the global flags point at: --from FILE (a snapshot
// or a kcat -J dump) or a live cluster (-b, or --worker-config with
// bootstrap.servers), the latter as spec says.
func loadDataset(c *cli.Context, g Globals, spec readSpec) (*inspect.Dataset, error) {
	if g.From != "" {
		ds, err := source.LoadFile(g.From, g.Topics)
		if err != nil {
			return nil, InputError(err)
		}
		return ds, nothingDecoded(g.From, ds)
	}
	if g.Live() {
		return loadLive(c, g, spec)
	}
	if g.contextErr != nil {
		return nil, g.contextErr // its current context may have named the cluster
	}
	return nil, UsageErrorf("nothing to read: give --from FILE (a snapshot or kcat -J dump), -b HOST:PORT, or --worker-config FILE")
}

// liveOptions builds the live read's options from the resolved globals.
func liveOptions(c *cli.Context, g Globals) (live.Options, error) {
	conn, err := g.ConnOptions()
	if err != nil {
		return live.Options{}, err
	}
	useLiveMemory(c)
	return live.Options{Conn: conn, Group: g.Group, Topics: g.Topics, Isolation: g.Isolation}, nil
}

// loadLive reads the cluster as spec says.
func loadLive(c *cli.Context, g Globals, spec readSpec) (*inspect.Dataset, error) {
	opts, err := liveOptions(c, g)
	if err != nil {
		return nil, err
	}
	if spec.settleGroup {
		opts.GroupSettle = min(5*time.Second, g.Timeout/2)
	}
	if spec.topics != nil {
		opts.Read = spec.topics(g.Topics)
	}
	opts.SkipSinkGroups = spec.skipSinkGroups
	ds, err := live.Read(c.Context, opts)
	if err != nil {
		return nil, InputError(err)
	}
	if spec.needsStableGroup && inspect.GroupRebalancing(ds.Group) {
		return nil, InputError(live.GroupUnsettledError(ds.Group))
	}
	return ds, nil
}

// loadOffsets gives `inspect offsets` its decoded result. From a file the
// dataset's offsets records are decoded as usual; live, the offsets topic is
// streamed into the decoder as it is read, so its records are never all
// held at once (a million small records cost more as Record structs than
// as bytes).
func loadOffsets(c *cli.Context, g Globals) (*store.OffsetsResult, error) {
	if g.From != "" {
		// A kcat dump streams through the decoder: memory follows the
		// distinct keys, not the file. A snapshot is read whole.
		opts := viewOptions(c, g)
		opts.Topic = g.Topics.Offset
		dec := store.NewOffsetsDecoder(opts)
		ds, streamed, err := streamFrom(g, g.Topics.Offset, func(r *inspect.Record) { dec.Add(*r) })
		if err != nil {
			return nil, err
		}
		d := decoded.Decode(ds, viewOptions(c, g))
		if streamed {
			d.WithOffsets(dec.Result())
		}
		res := d.Offsets()
		if name := c.String(flagConnector); name != "" && len(res.Offsets) == 0 && !knownConnector(d) {
			return nil, connectorNotFound(name, d.Topics.Config, d.Topics.Status, d.Topics.Offset)
		}
		addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Offset))
		return res, nil
	}
	if !g.Live() {
		ds, err := loadDataset(c, g, readAll)
		if err != nil {
			return nil, err
		}
		d := decoded.Decode(ds, viewOptions(c, g))
		res := d.Offsets()
		if name := c.String(flagConnector); name != "" && len(res.Offsets) == 0 && !knownConnector(d) {
			return nil, connectorNotFound(name, d.Topics.Config, d.Topics.Status, d.Topics.Offset)
		}
		addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Offset))
		return res, nil
	}
	opts := viewOptions(c, g)
	opts.Topic = g.Topics.Offset
	liveOpts, err := liveOptions(c, g)
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
		// No offsets of it (a sink, a source that never committed, or one
		// whose offsets were reset): it is known when the config or status
		// topic names it, which only then is read.
		ds, err := loadDataset(c, g, readConfigsAndStatus)
		if err != nil {
			return nil, err
		}
		if !knownConnector(decoded.Decode(ds, opts)) {
			return nil, connectorNotFound(opts.Connector, g.Topics.Config, g.Topics.Status, g.Topics.Offset)
		}
	}
	return res, nil
}

// streamFrom reads g.From with topic's records streamed into add (a kcat
// dump; a snapshot is read whole and streamed reports false). A file of
// which nothing decodes is refused, as loadDataset refuses it.
func streamFrom(g Globals, topic string, add func(*inspect.Record)) (ds *inspect.Dataset, streamed bool, err error) {
	n := 0 // records streamed to add: they are not kept in ds
	ds, streamed, err = source.StreamFile(g.From, g.Topics, topic, func(r *inspect.Record) { n++; add(r) })
	if err != nil {
		return nil, false, InputError(err)
	}
	if n == 0 {
		if err := nothingDecoded(g.From, ds); err != nil {
			return nil, false, err
		}
	}
	return ds, streamed, nil
}
