package plan

import (
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// ConnectorOptions are `plan connector`'s inputs.
type ConnectorOptions struct {
	WhatIfOptions
	Set, Add, Remove urfave.StringSlice
}

// NewCmdConnector is `plan connector`; run replaces the run function in tests.
func NewCmdConnector(run func(*cli.Env, *ConnectorOptions) error) *cli.Command {
	return cli.Verb(run, runConnector, func(o *ConnectorOptions) *cli.Command {
		return &cli.Command{
			Name:  "connector",
			Usage: "preview changing task counts, adding or removing connectors",
			Examples: `
connectscope plan connector --from cluster.snapshot.json --set orders=8
connectscope plan connector --from cluster.snapshot.json --add audit=2 --remove old-sink`,
			Flags: append([]urfave.Flag{
				&urfave.StringSliceFlag{Name: "set", Destination: &o.Set, Usage: "change a connector's task count, `NAME=TASKS` (repeatable)"},
				&urfave.StringSliceFlag{Name: "add", Destination: &o.Add, Usage: "create a connector with TASKS tasks, `NAME=TASKS` (repeatable)"},
				&urfave.StringSliceFlag{Name: "remove", Destination: &o.Remove, Usage: "delete a connector `NAME` (repeatable)"},
			}, o.WhatIfOptions.flags()...),
			Spec: whatIfSpec(map[string]cli.Candidates{"remove": cli.Connectors, "set": connectorsWithEquals}),
		}
	})
}

func runConnector(e *cli.Env, o *ConnectorOptions) error {
	set, err := parseNameTasks("--set", o.Set.Value())
	if err != nil {
		return err
	}
	add, err := parseNameTasks("--add", o.Add.Value())
	if err != nil {
		return err
	}
	change := whatif.ConnectorChange{Set: set, Add: add, Remove: cli.SplitList(o.Remove.Value())}
	return whatIf(e, &o.WhatIfOptions, func(s start) (*whatif.PlanResult, error) {
		return whatif.ConnectorPlan(s.state, s.opts, change)
	})
}

// connectorsWithEquals complete --set NAME=: the connectors, each with its =.
func connectorsWithEquals(q *cli.Query) []string {
	var out []string
	for _, n := range cli.Connectors(q) {
		out = append(out, n+"=")
	}
	return out
}

// parseNameTasks reads NAME=TASKS values.
func parseNameTasks(flag string, vals []string) (map[string]int, error) {
	out := map[string]int{}
	for _, v := range cli.SplitList(vals) {
		name, n, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, cli.UsageErrorf("%s: want NAME=TASKS, got %q", flag, v)
		}
		tasks, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || tasks < 0 {
			return nil, cli.UsageErrorf("%s %s: TASKS must be a non-negative integer, got %q", flag, name, n)
		}
		if _, dup := out[name]; dup {
			return nil, cli.UsageErrorf("%s: %s given twice", flag, name)
		}
		out[name] = tasks
	}
	return out, nil
}
