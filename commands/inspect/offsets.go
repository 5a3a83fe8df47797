package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// OffsetsOptions are `inspect offsets`' inputs.
type OffsetsOptions struct {
	ViewOptions
}

// NewCmdOffsets is `inspect offsets`; run replaces the run function in tests.
func NewCmdOffsets(run func(*cli.Env, *OffsetsOptions) error) *cli.Command {
	return cli.Verb(run, runOffsets, func(o *OffsetsOptions) *cli.Command {
		return &cli.Command{
			Name:  "offsets",
			Usage: "source connector offsets (offsets topic)",
			Examples: `
connectscope inspect offsets --from cluster.snapshot.json --connector orders
connectscope -b broker:9092 inspect offsets -o json`,
			Flags: append([]urfave.Flag{connectorFlag(&o.Connector)}, filterFlags(&o.Filter, false)...),
			Spec:  viewSpec(cli.OffsetTopic, (*views.OffsetsResult)(nil)),
		}
	})
}

// runOffsets goes through loadOffsets, which streams a live offsets topic
// into the decoder instead of holding every record first.
func runOffsets(e *cli.Env, o *OffsetsOptions) error {
	res, err := loadOffsets(e, o.ViewOptions)
	if err != nil {
		return err
	}
	if o.Filter.Pattern != "" || o.Filter.Type != "" {
		f, err := o.Filter.spec(e, nil)
		if err != nil {
			return err
		}
		f.Offsets(res)
	}
	return e.Emit(res)
}

// readConfigsAndStatus tells whether a connector exists (offsets of a
// connector that has none).
var readConfigsAndStatus = cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true}

// loadOffsets gives `inspect offsets` its decoded result. From a file the
// dataset's offsets records are decoded as usual; live, the offsets topic is
// streamed into the decoder as it is read, so its records are never all
// held at once (a million small records cost more as Record structs than
// as bytes).
func loadOffsets(e *cli.Env, v ViewOptions) (*views.OffsetsResult, error) {
	g := e.Globals
	if g.Live() {
		return streamLiveOffsets(e, v)
	}
	// A kcat dump streams through the decoder: memory follows the distinct
	// keys, not the file. A snapshot is read whole.
	opts := v.decodeOptions(e)
	opts.Topic = g.Topics.Offset
	d, err := views.StreamOffsets(opts, func(add func(inspect.Record)) (*inspect.Dataset, bool, error) {
		if g.From == "" {
			ds, err := e.Dataset() // a dataset handed in, or the error saying what is missing
			return ds, false, err
		}
		return streamFrom(e, g.Topics.Offset, func(r *inspect.Record) { add(*r) })
	})
	if err != nil {
		return nil, err
	}
	res := d.Offsets()
	if v.Connector != "" && len(res.Offsets) == 0 {
		if !knownConnector(d) {
			return nil, connectorNotFound(v.Connector, d.Topics.Config, d.Topics.Status, d.Topics.Offset)
		}
		if connectorKind(d) == "sink" {
			return nil, wrongKind(v.Connector, "sink")
		}
	}
	addProblems(&res.Records, &res.Problems, d.ExtraProblems(d.Topics.Offset))
	return res, nil
}

// streamLiveOffsets streams the live offsets topic into the decoder.
func streamLiveOffsets(e *cli.Env, v ViewOptions) (*views.OffsetsResult, error) {
	g := e.Globals
	opts := v.decodeOptions(e)
	opts.Topic = g.Topics.Offset
	liveOpts, err := e.LiveOptions()
	if err != nil {
		return nil, err
	}
	liveOpts.Read, liveOpts.SkipSinkGroups = []string{g.Topics.Offset}, true
	liveOpts.StreamTopic = g.Topics.Offset
	d, err := views.StreamOffsets(opts, func(add func(inspect.Record)) (*inspect.Dataset, bool, error) {
		liveOpts.Stream = add
		ds, err := live.Read(e.Ctx, liveOpts)
		if err != nil {
			return nil, false, cli.InputError(err)
		}
		return ds, true, nil
	})
	if err != nil {
		return nil, err
	}
	res := d.Offsets()
	if opts.Connector != "" && len(res.Offsets) == 0 {
		// No offsets of it (a sink, a source that never committed, or one
		// whose offsets were reset): it is known when the config or status
		// topic names it, which only then is read.
		ds, err := e.DatasetAs(readConfigsAndStatus)
		if err != nil {
			return nil, err
		}
		d := views.Decode(ds, opts)
		if !knownConnector(d) {
			return nil, connectorNotFound(opts.Connector, g.Topics.Config, g.Topics.Status, g.Topics.Offset)
		}
		if connectorKind(d) == "sink" {
			return nil, wrongKind(opts.Connector, "sink")
		}
	}
	return res, nil
}

// streamFrom reads g.From with topic's records streamed into add (a kcat
// dump; a snapshot is read whole and streamed reports false). A file of
// which nothing decodes is refused, as the loader refuses it.
func streamFrom(e *cli.Env, topic string, add func(*inspect.Record)) (ds *inspect.Dataset, streamed bool, err error) {
	g := e.Globals
	n := 0 // records streamed to add: they are not kept in ds
	ds, streamed, err = source.StreamFile(e.Ctx, g.From, g.Topics, topic, func(r *inspect.Record) { n++; add(r) })
	if err != nil {
		return nil, false, cli.InputError(err)
	}
	if n == 0 {
		if err := source.NothingDecoded(g.From, ds); err != nil {
			return nil, false, cli.InputError(err)
		}
	}
	return ds, streamed, nil
}
