package inspect

import (
	"errors"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

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

// Flags binds the flags the views of connectors and their states share:
// --connector, --kafka-version and the filters.
func (v *ViewOptions) Flags() []urfave.Flag {
	return append([]urfave.Flag{connectorFlag(&v.Connector), kafkaVersionFlag(&v.KafkaVersion)}, filterFlags(&v.Filter, true)...)
}

// statelessFlags binds the flags of the views whose rows have no state
// (offsets, sinks): --connector and the filters but --state.
func (v *ViewOptions) statelessFlags() []urfave.Flag {
	return append([]urfave.Flag{connectorFlag(&v.Connector)}, filterFlags(&v.Filter, false)...)
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
		Inputs: filterInputs,
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

// showView is a listing view's run: its input read and decoded (load), the
// view asked the filters (others: the topics it may need beside its own,
// read live only when it does), the result printed (emit).
func showView[R any](e *cli.Env, v ViewOptions, load func(*cli.Env, ViewOptions) (*views.Dataset, error), others cli.Topics, view func(*views.Dataset, views.Query) (R, error)) error {
	d, err := load(e, v)
	if err != nil {
		return err
	}
	res, err := view(d, v.Filter.query(e, others))
	return emit(e, res, err)
}

// emit prints a view's result, or gives its error its exit status: a name
// the input does not hold is not found (exit 4); a filter's value the
// filter refuses is a usage error (exit 2), worded with its flag through
// Spec.Inputs; the reads' errors keep theirs.
func emit(e *cli.Env, res any, err error) error {
	var coded *cli.ExitError
	var fe *field.Error
	switch {
	case err == nil:
		return e.Emit(res)
	case errors.As(err, &coded):
		return err
	case errors.Is(err, views.ErrNotFound):
		return cli.NotFound(err)
	case errors.As(err, &fe):
		return cli.Exit(cli.ExitUsage, err)
	}
	return err
}
