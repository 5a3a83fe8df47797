package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
)

// RebalancesOptions are `inspect rebalances`' inputs.
type RebalancesOptions struct{}

// NewCmdRebalances is `inspect rebalances`; run replaces the run function in tests.
func NewCmdRebalances(run func(*cli.Env, *RebalancesOptions) error) *cli.Command {
	return cli.Verb(run, runRebalances, func(o *RebalancesOptions) *cli.Command {
		return &cli.Command{
			Name:  "rebalances",
			Usage: "the recent rebalances the status topic still shows: when, what seems to have started each, what stopped and for how long, restart times",
			Description: cli.Examples(
				"connectscope inspect rebalances --from cluster.snapshot.json",
				"connectscope -b broker:9092 inspect rebalances -o json --jq '.restarts[].away_ms'"),
			Spec: cli.Spec{Read: cli.ReadSpec{Topics: cli.StatusTopic, SkipSinkGroups: true}, Result: (*history.Result)(nil)},
			Args: cli.NoArgs,
		}
	})
}

func runRebalances(e *cli.Env, _ *RebalancesOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	return e.Emit(history.FromRecords(ds.Topics.Status, views.Of(ds).StatusRecords()))
}
