package top

import (
	"fmt"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/diff"
	"github.com/connectscope/connectscope/inspect/source"
	urfave "github.com/urfave/cli/v2"
)

const flagLive = "live"

// DiffOptions are `diff`'s inputs.
type DiffOptions struct {
	Live          bool
	Before, After string // the arguments; After is empty with --live
}

// NewCmdDiff is `diff BEFORE AFTER | BEFORE --live`; run replaces the run
// function in tests.
func NewCmdDiff(run func(*cli.Env, *DiffOptions) error) *cli.Command {
	return cli.Verb(run, runDiff, func(o *DiffOptions) *cli.Command {
		return &cli.Command{
			Name:      "diff",
			Usage:     "compare two snapshots, or a snapshot and the live cluster: what was added, removed, reconfigured, moved",
			ArgsUsage: "BEFORE AFTER | BEFORE --live",
			Description: `
Compares two readings of one Connect cluster: connectors and tasks added, removed or
reconfigured (config keys, secrets redacted), state changes, owners that changed, source
offsets and sink commits that moved, workers that joined or left the group. BEFORE and
AFTER are snapshot or kcat -J dump files (- reads one from stdin); with --live, AFTER is the cluster read now
(-b, --worker-config or a context). Exit status 0: equal, 1: different (as kubectl diff).`,
			Examples: `
connectscope diff before.snapshot.json after.snapshot.json
connectscope diff --live -b broker:9092 before.snapshot.json
connectscope diff -o json --jq '.connectors[] | select(.config | length > 0) | .name' a.json b.json`,
			Flags: []urfave.Flag{
				&urfave.BoolFlag{Name: flagLive, Destination: &o.Live, Usage: "compare BEFORE with the cluster read now instead of a second file"},
			},
			Spec: cli.Spec{Read: cli.ReadSpec{}, Result: (*diff.Result)(nil)}, // live: what a snapshot holds, to compare like with like
			Args: o.args,
		}
	})
}

// args reads BEFORE and AFTER (or BEFORE alone, with --live).
func (o *DiffOptions) args(e *cli.Env) error {
	if e.Globals.From != "" {
		return cli.UsageErrorf("diff reads the files given as arguments, not --from: connectscope diff BEFORE AFTER")
	}
	switch {
	case o.Live && len(e.Args) != 1:
		return cli.UsageErrorf("diff --live needs one file, BEFORE, to compare with the cluster")
	case !o.Live && len(e.Args) != 2:
		return cli.UsageErrorf("diff needs two files, BEFORE and AFTER (or one and --live)")
	}
	o.Before = e.Args[0]
	if !o.Live {
		o.After = e.Args[1]
	}
	return nil
}

func runDiff(e *cli.Env, o *DiffOptions) error {
	g := e.Globals
	before, err := source.LoadFileContext(e.Ctx, o.Before, g.Topics)
	if err != nil {
		return cli.InputError(err)
	}
	var after *inspect.Dataset
	if o.Live {
		if !g.Live() {
			return cli.UsageErrorf("diff --live needs a cluster: give -b HOST:PORT, --worker-config FILE or --context NAME")
		}
		after, err = e.ReadLive(cli.ReadSpec{})
	} else {
		after, err = source.LoadFileContext(e.Ctx, o.After, g.Topics)
		if err != nil {
			err = cli.InputError(err)
		}
	}
	if err != nil {
		return err
	}
	res := diff.Compare(before, after, diff.Options{ShowSecrets: g.ShowSecrets})
	if err := e.Emit(res); err != nil {
		return err
	}
	if !res.Equal {
		return cli.Exit(cli.ExitFindings, fmt.Errorf("the two readings differ: %s", format.Count(res.Changes, "changed item", "changed items")))
	}
	return nil
}
