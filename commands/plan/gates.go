package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// GateOptions are a runbook's limits on a what-if plan: beyond one, the
// plan still prints, and the command exits 1 with the figure on stderr.
type GateOptions struct {
	MaxOutage      string
	MaxTaskSeconds string
	MaxMoves       string
	MaxRounds      string
}

func (o *GateOptions) flags() []urfave.Flag {
	return []urfave.Flag{
		&urfave.StringFlag{Name: whatif.GateMaxOutage, Destination: &o.MaxOutage, Usage: "gate: exit 1 when a task is down longer than this `DURATION` in any branch (work never reassigned counts as too long)"},
		&urfave.StringFlag{Name: whatif.GateMaxTaskSeconds, Destination: &o.MaxTaskSeconds, Usage: "gate: exit 1 when more than `N` task-seconds are not running in any branch"},
		&urfave.StringFlag{Name: whatif.GateMaxMoves, Destination: &o.MaxMoves, Usage: "gate: exit 1 when more than `N` tasks end on another machine in any branch"},
		&urfave.StringFlag{Name: whatif.GateMaxRounds, Destination: &o.MaxRounds, Usage: "gate: exit 1 when any branch takes more than `N` rebalance rounds"},
	}
}

// gates reads the gate flags given.
func (o GateOptions) gates(e *cli.Env) (whatif.Gates, error) {
	var g whatif.Gates
	if e.Given(whatif.GateMaxOutage) {
		ms, err := parseDurationMs("--"+whatif.GateMaxOutage, o.MaxOutage)
		if err != nil {
			return g, err
		}
		g.MaxOutageMs = &ms
	}
	count := func(flag, value string) (*int64, error) {
		if !e.Given(flag) {
			return nil, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 0 {
			return nil, cli.UsageErrorf("--%s: want a whole number, 0 or more, got %q", flag, value)
		}
		return &n, nil
	}
	var err error
	if g.MaxTaskSeconds, err = count(whatif.GateMaxTaskSeconds, o.MaxTaskSeconds); err != nil {
		return g, err
	}
	for _, c := range []struct {
		flag, value string
		into        **int
	}{{whatif.GateMaxMoves, o.MaxMoves, &g.MaxMoves}, {whatif.GateMaxRounds, o.MaxRounds, &g.MaxRounds}} {
		n, err := count(c.flag, c.value)
		if err != nil {
			return g, err
		}
		if n != nil {
			v := int(min(*n, 1<<31-1))
			*c.into = &v
		}
	}
	return g, nil
}

// gateFailed is the exit status of a plan beyond its gates: 1, with every
// figure that broke one on the error line.
func gateFailed(breaches []whatif.Breach) error {
	if len(breaches) == 0 {
		return nil
	}
	msgs := make([]string, len(breaches))
	for i, b := range breaches {
		msgs[i] = b.Message
	}
	return cli.Exit(cli.ExitFindings, fmt.Errorf("plan beyond its gates: %s", strings.Join(msgs, "; ")))
}
