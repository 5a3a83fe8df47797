package inspect

import (
	"errors"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/filter"
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

// spec parses the filters, worded with their flags when they are wrong.
// The connectors' types come from d's configs, read on their own when a
// live view did not read the config topic.
func (f FilterOptions) spec(e *cli.Env, d *views.Dataset) (filter.Spec, error) {
	s, err := filter.Parse(f.Pattern, f.Type, f.States.Value())
	var fe *field.Error
	if errors.As(err, &fe) {
		flag := map[string]string{"Pattern": flagRegExp, "Type": flagType, "State": flagState}[fe.Name]
		return s, cli.UsageErrorf("--%s%s", flag, fe.Detail)
	}
	if err != nil || s.Type == "" {
		return s, err
	}
	var configs *views.ConfigsResult
	if d != nil {
		configs = d.Configs()
	}
	if configs == nil || len(configs.Connectors) == 0 {
		read := e.Dataset
		if e.Globals.Live() {
			read = func() (*inspect.Dataset, error) {
				return e.DatasetAs(cli.ReadSpec{Topics: cli.ConfigTopic, SkipSinkGroups: true})
			}
		}
		ds, err := read()
		if err != nil {
			return s, err
		}
		configs = views.Decode(ds, views.Options{}).Configs()
	}
	s.Types = filter.Types(configs)
	return s, nil
}
