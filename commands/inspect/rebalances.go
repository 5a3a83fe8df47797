package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// RebalancesOptions are `inspect rebalances`' inputs.
type RebalancesOptions struct{}

// NewCmdRebalances is `inspect rebalances`; run replaces the run function in tests.
func NewCmdRebalances(run func(*cli.Env, *RebalancesOptions) error) *cli.Command {
	return cli.Verb(run, runRebalances, func(o *RebalancesOptions) *cli.Command {
		return &cli.Command{
			Name:  "rebalances",
			Usage: "the recent rebalances the status topic still shows: when, what seems to have started each, what stopped and for how long, restart times, and the last event's cost beside a plan's",
			Description: cli.Examples(
				"connectscope inspect rebalances --from cluster.snapshot.json",
				"connectscope -b broker:9092 inspect rebalances -o json --jq '.restarts[].away_ms'"),
			// The config topic and the group: the plan of the last event
			// starts from the connectors configured and the group's protocol.
			Spec: cli.Spec{Read: cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true}, Result: (*history.Result)(nil)},
			Args: cli.NoArgs,
		}
	})
}

func runRebalances(e *cli.Env, _ *RebalancesOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	v := views.Of(ds)
	res := history.FromRecords(ds.Topics.Status, v.StatusRecords())
	// The last event's plan takes the first --worker-config's delay,
	// session timeout and heartbeat, else Kafka's defaults.
	settings := timeline.Settings{Ctx: e.Ctx, Given: map[string]bool{}}
	if g := e.Globals; len(g.WorkerConfigs) > 0 {
		settings.WorkerPath, settings.Worker = g.WorkerConfigs[0].Path, g.WorkerConfigs[0].Props
	}
	opts, err := settings.Options(cluster.State{})
	if err != nil {
		return cli.Exit(cli.ExitUsage, err)
	}
	if err := whatif.PredictLast(v, res.LastEvent, opts); err != nil {
		return err
	}
	return e.Emit(res)
}
