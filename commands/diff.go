package commands

import (
	"fmt"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/diff"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/urfave/cli/v2"
)

const flagLive = "live"

// diffCommand compares two readings of one cluster.
func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two snapshots, or a snapshot and the live cluster: what was added, removed, reconfigured, moved",
		ArgsUsage: "BEFORE AFTER | BEFORE --live",
		Description: "Compares two readings of one Connect cluster: connectors and tasks added, removed or\n" +
			"reconfigured (config keys, secrets redacted), state changes, owners that changed, source\n" +
			"offsets and sink commits that moved, workers that joined or left the group. BEFORE and\n" +
			"AFTER are snapshot or kcat -J dump files (- reads one from stdin); with --live, AFTER is the cluster read now\n" +
			"(-b, --worker-config or a context). Exit status 0: equal, 1: different (as kubectl diff).\n\n" +
			"Examples:\n" +
			"  connectscope diff before.snapshot.json after.snapshot.json\n" +
			"  connectscope diff --live -b broker:9092 before.snapshot.json\n" +
			"  connectscope diff -o json --jq '.connectors[] | select(.config | length > 0) | .name' a.json b.json",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: flagLive, Usage: "compare BEFORE with the cluster read now instead of a second file"},
		},
		Action: action(runDiff),
	}
}

func runDiff(c *cli.Context, g Globals) error {
	live := c.Bool(flagLive)
	if g.From != "" {
		return UsageErrorf("diff reads the files given as arguments, not --from: connectscope diff BEFORE AFTER")
	}
	want := 2
	if live {
		want = 1
	}
	if c.NArg() != want {
		if live {
			return UsageErrorf("diff --live needs one file, BEFORE, to compare with the cluster")
		}
		return UsageErrorf("diff needs two files, BEFORE and AFTER (or one and --live)")
	}
	before, err := source.LoadFile(c.Args().Get(0), g.Topics)
	if err != nil {
		return InputError(err)
	}
	var after *inspect.Dataset
	if live {
		if !g.Live() {
			return UsageErrorf("diff --live needs a cluster: give -b HOST:PORT, --worker-config FILE or --context NAME")
		}
		after, err = loadLive(c, g, readAll) // what a snapshot holds, to compare like with like
	} else {
		after, err = source.LoadFile(c.Args().Get(1), g.Topics)
		err = inputErr(err)
	}
	if err != nil {
		return err
	}
	res := diff.Compare(before, after, diff.Options{ShowSecrets: g.ShowSecrets})
	if err := emit(c, g, res); err != nil {
		return err
	}
	if !res.Equal {
		return Exit(ExitFindings, fmt.Errorf("the two readings differ: %s", format.Count(res.Changes, "changed item", "changed items")))
	}
	return nil
}

func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return InputError(err)
}
