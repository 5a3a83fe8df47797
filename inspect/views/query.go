package views

import (
	"errors"
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/filter"
)

// Query is what a listing view (configs, status, connectors, offsets,
// sinks) is asked beside Decode's options, which name its one connector if
// any: the filters as given, and where to read what the dataset lacks.
type Query struct {
	// Pattern, Type and States are the filters as given (filter.Parse);
	// a value they refuse is a *field.Error naming Pattern, Type or State.
	// They are read after the connector is found.
	Pattern, Type string
	States        []string
	// Others reads the topics beside the view's own that it may need (the
	// config topic for the connectors' types of a type filter, the config
	// and status topics for whether a connector the view has nothing of
	// exists) when the dataset does not hold them: a live view reads its
	// own topic only. It is called at most once, and only when the view
	// needs it. Nil when the dataset holds all there is (a file).
	Others func() (*inspect.Dataset, error)
	// others is what Others read, decoded, once it was called.
	others *Dataset
}

// ErrNotFound is what every error of a name the input does not hold (a
// connector, a worker) is (errors.Is), whatever its words.
var ErrNotFound = errors.New("not found")

// NotFoundError is a connector asked of a view that the input does not
// hold: no record of it in Topics, or (Kind) one of the kind the view does
// not show.
type NotFoundError struct {
	Name   string
	Topics []string // where it was looked for
	Kind   string   // "source" or "sink" when it is there but of that kind
}

// Is makes the error an ErrNotFound.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

func (e *NotFoundError) Error() string {
	switch e.Kind {
	case "source":
		return fmt.Sprintf("%s is a source connector: inspect sinks shows sink connectors' consumer groups; its progress is its offsets, in `connectscope inspect offsets --connector %s`", e.Name, e.Name)
	case "sink":
		return fmt.Sprintf("%s is a sink connector: inspect offsets shows source connectors' offsets; its progress is its consumer group's commits, in `connectscope inspect sinks --connector %s`", e.Name, e.Name)
	}
	return fmt.Sprintf("connector %q not found in %s: `connectscope inspect connectors` lists the connectors", e.Name, strings.Join(e.Topics, " or "))
}

// ConfigsView is `inspect configs`: the config topic replayed, narrowed by
// q (state: the target state), with the problems of the input it must
// account for (ExtraProblems).
func (d *Dataset) ConfigsView(q Query) (*ConfigsResult, error) {
	res := d.Configs()
	if err := d.known(&q, d.Topics.Config, d.Topics.Status); err != nil {
		return nil, err
	}
	return narrowed(d, q, res, filter.Spec.Configs, &res.Records, &res.Problems, d.Topics.Config)
}

// StatusView is `inspect status`: the status topic replayed, narrowed by q
// (each row by its own state), with the problems it must account for.
func (d *Dataset) StatusView(q Query) (*StatusResult, error) {
	res := d.Status()
	if err := d.known(&q, d.Topics.Config, d.Topics.Status); err != nil {
		return nil, err
	}
	return narrowed(d, q, res, filter.Spec.Status, &res.Records, &res.Problems, d.Topics.Status)
}

// ConnectorsView is `inspect connectors`: one line per connector, narrowed
// by q (state: the connector's), with the problems of both topics it reads.
// The options' connector is found when it has a line.
func (d *Dataset) ConnectorsView(q Query) (*ConnectorsResult, error) {
	res := d.Connectors()
	if name := d.opts.Connector; name != "" && len(res.Connectors) == 0 {
		return nil, &NotFoundError{Name: name, Topics: []string{d.Topics.Config, d.Topics.Status}}
	}
	return narrowed(d, q, res, filter.Spec.Connectors, &res.Records, &res.Problems, d.Topics.Config, d.Topics.Status)
}

// OffsetsView is `inspect offsets`: the source connectors' offsets,
// narrowed by q's name and type, with the problems it must account for.
// A connector without offsets (a sink, a source that never committed, one
// whose offsets were reset) is looked up in the config and status topics:
// one they do not name is not found, a sink is of the other kind.
func (d *Dataset) OffsetsView(q Query) (*OffsetsResult, error) {
	res := d.Offsets()
	if d.opts.Connector != "" && len(res.Offsets) == 0 {
		if err := d.kindOf(&q, "sink", d.Topics.Config, d.Topics.Status, d.Topics.Offset); err != nil {
			return nil, err
		}
	}
	return narrowed(d, q, res, filter.Spec.Offsets, &res.Records, &res.Problems, d.Topics.Offset)
}

// SinksView is `inspect sinks`: the sink connectors' consumer groups,
// narrowed by q's name and type. A connector without a group here is not
// found, or a source.
func (d *Dataset) SinksView(q Query) (SinksResult, error) {
	res := d.Sinks()
	if d.opts.Connector != "" && len(res.Sinks) == 0 {
		if err := d.kindOf(&q, "source", d.Topics.Config, d.Topics.Status); err != nil {
			return res, err
		}
	}
	_, err := narrowed(d, q, &res, filter.Spec.Sinks, nil, nil)
	return res, err
}

// narrowed is a listing view once its connector is found: res narrowed by
// q's filters (narrow), and the input's problems of topics accounted for in
// its counts and problems (none for a view without them).
func narrowed[R any](d *Dataset, q Query, res R, narrow func(filter.Spec, R), counts *inspect.RecordCounts, problems *[]inspect.Problem, topics ...string) (R, error) {
	f, err := d.filter(q)
	if err != nil {
		var none R
		return none, err
	}
	narrow(f, res)
	if counts != nil {
		extra := d.ExtraProblems(topics...)
		counts.Read += len(extra)
		counts.Problems += len(extra)
		*problems = append(*problems, extra...)
	}
	return res, nil
}

// known refuses the options' connector when neither a config nor a status
// record names it (looked for in topics): in d, then in the topics q.Others
// reads when d holds only its own (live, a view reads one topic).
func (d *Dataset) known(q *Query, topics ...string) error {
	name := d.opts.Connector
	if name == "" || d.names() {
		return nil
	}
	if q != nil && q.Others != nil {
		o, err := d.others(q)
		if err != nil {
			return err
		}
		if o.names() {
			return nil
		}
	}
	return &NotFoundError{Name: name, Topics: topics}
}

// names says whether a config or status record of d names its connector
// (d's records are those of the options' connector only).
func (d *Dataset) names() bool {
	if len(d.Configs().Connectors) > 0 {
		return true
	}
	st := d.Status()
	return len(st.Connectors) > 0 || len(st.Tasks) > 0
}

// kindOf refuses the options' connector, which the view has nothing of,
// when it is not known (looked for in topics, in d or in what q.Others
// reads), or when its config says it is of kind, the kind the view does
// not show.
func (d *Dataset) kindOf(q *Query, kind string, topics ...string) error {
	known, err := d.others(q)
	if err != nil {
		return err
	}
	if err := known.known(nil, topics...); err != nil {
		return err
	}
	if known.kind() == kind {
		return &NotFoundError{Name: d.opts.Connector, Kind: kind}
	}
	return nil
}

// kind is the type (source, sink) of the options' connector, from its
// config; "" when the config does not say.
func (d *Dataset) kind() string {
	for _, c := range d.Configs().Connectors {
		if t := ConnectorType(c.Config); t == "source" || t == "sink" {
			return t
		}
	}
	return ""
}

// others is d, or the topics q.Others reads when d holds only its own
// topic (decoded as d is), read and decoded once: q keeps them.
func (d *Dataset) others(q *Query) (*Dataset, error) {
	if q.Others == nil {
		return d, nil
	}
	if q.others == nil {
		ds, err := q.Others()
		if err != nil {
			return nil, err
		}
		q.others = Decode(ds, d.opts)
	}
	return q.others, nil
}

// filter parses q's filters; a type filter takes the connectors' types from
// the configs, of d or, when d holds none, of q.Others.
func (d *Dataset) filter(q Query) (filter.Spec, error) {
	s, err := filter.Parse(q.Pattern, q.Type, q.States)
	if err != nil || s.Type == "" {
		return s, err
	}
	configs := d.Configs()
	if len(configs.Connectors) == 0 {
		o, err := d.others(&q)
		if err != nil {
			return s, err
		}
		configs = o.Configs()
	}
	s.Types = filter.Types(configs)
	return s, nil
}
