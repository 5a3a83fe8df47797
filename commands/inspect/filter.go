package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// FilterOptions narrow the views that list connectors: by name (a regular
// expression, as kcctl's -e), type and state.
type FilterOptions struct {
	Pattern string
	Type    string
	States  urfave.StringSlice
}

// Flag names of the filters.
const (
	flagRegExp = "reg-exp"
	flagType   = "type"
	flagState  = "state"
)

// filterFlags binds the filters; withState adds --state, for the views
// whose rows have a state.
func filterFlags(f *FilterOptions, withState bool) []urfave.Flag {
	out := []urfave.Flag{
		&urfave.StringFlag{Name: flagRegExp, Aliases: []string{"e"}, Destination: &f.Pattern,
			Usage: "only connectors whose name matches the regular expression `REGEX` (anywhere in the name: '^orders-', 'sink$')"},
		&urfave.StringFlag{Name: flagType, Destination: &f.Type, Usage: "only `source` or `sink` connectors (from their configs)"},
	}
	if withState {
		out = append(out, &urfave.StringSliceFlag{Name: flagState, Destination: &f.States,
			Usage: "only rows in `STATE` (RUNNING, FAILED, PAUSED, STOPPED, UNASSIGNED, RESTARTING; repeatable or comma-separated)"})
	}
	return out
}

var filterValues = map[string]cli.Candidates{
	flagType:  cli.Fixed("source", "sink"),
	flagState: cli.Fixed("RUNNING", "FAILED", "PAUSED", "STOPPED", "UNASSIGNED", "RESTARTING"),
}

// filterInputs name the filters' flags for the views' errors (filter.Parse's
// inputs).
var filterInputs = map[string]string{"Pattern": flagRegExp, "Type": flagType, "State": flagState}

// query is what a view is asked: the filters as given and, live, a read of
// the topics the view may need beside its own (others): the config topic
// for the connectors' types, the status topic for a connector's existence.
func (f FilterOptions) query(e *cli.Env, others cli.Topics) views.Query {
	q := views.Query{Pattern: f.Pattern, Type: f.Type, States: f.States.Value()}
	if e.Globals.Live() {
		q.Others = func() (*inspect.Dataset, error) {
			return e.DatasetAs(cli.ReadSpec{Topics: others, SkipSinkGroups: true})
		}
	}
	return q
}
