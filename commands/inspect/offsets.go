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

// Flags binds the flags of a view without states (offsets have none, and
// their decoding no rule that changed between releases).
func (o *OffsetsOptions) Flags() []urfave.Flag { return o.statelessFlags() }

// NewCmdOffsets is `inspect offsets`; run replaces the run function in tests.
func NewCmdOffsets(run func(*cli.Env, *OffsetsOptions) error) *cli.Command {
	return cli.NewVerb(run, runOffsets, cli.Command{
		Name:  "offsets",
		Usage: "source connector offsets (offsets topic)",
		Examples: `
connectscope inspect offsets --from cluster.snapshot.json --connector orders
connectscope -b broker:9092 inspect offsets -o json`,
		Spec: viewSpec(cli.OffsetTopic, (*views.OffsetsResult)(nil)),
	})
}

// runOffsets goes through loadOffsets, which streams the offsets topic
// into the decoder instead of holding every record first.
func runOffsets(e *cli.Env, o *OffsetsOptions) error {
	return showView(e, o.ViewOptions, loadOffsets, cli.ConfigTopic|cli.StatusTopic, (*views.Dataset).OffsetsView)
}

// loadOffsets reads `inspect offsets`' input with the offsets topic decoded
// as it is read: live, and from a kcat dump, its records are never all held
// at once (a million small records cost more as Record structs than as
// bytes; memory follows the distinct keys). A snapshot is read whole.
func loadOffsets(e *cli.Env, v ViewOptions) (*views.Dataset, error) {
	g := e.Globals
	opts := v.decodeOptions(e)
	opts.Topic = g.Topics.Offset
	return views.StreamOffsets(opts, func(add func(inspect.Record)) (*inspect.Dataset, bool, error) {
		switch {
		case g.Live():
			return streamLiveOffsets(e, add)
		case g.From != "":
			return streamFrom(e, g.Topics.Offset, func(r *inspect.Record) { add(*r) })
		}
		ds, err := e.Dataset() // a dataset handed in, or the error saying what is missing
		return ds, false, err
	})
}

// streamLiveOffsets reads the live offsets topic, handing add its records.
func streamLiveOffsets(e *cli.Env, add func(inspect.Record)) (*inspect.Dataset, bool, error) {
	g := e.Globals
	liveOpts, err := e.LiveOptions()
	if err != nil {
		return nil, false, err
	}
	liveOpts.Read, liveOpts.SkipSinkGroups = []string{g.Topics.Offset}, true
	liveOpts.StreamTopic, liveOpts.Stream = g.Topics.Offset, add
	ds, err := live.Read(e.Ctx, liveOpts)
	if err != nil {
		return nil, false, cli.InputError(err)
	}
	return ds, true, nil
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
