package inspect

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// RebalancesOptions are `inspect rebalances`' inputs.
type RebalancesOptions struct {
	// Clock is the plan's time settings as flags.
	cli.Clock
}

// NewCmdRebalances is `inspect rebalances`; run replaces the run function in tests.
func NewCmdRebalances(run func(*cli.Env, *RebalancesOptions) error) *cli.Command {
	return cli.Verb(run, runRebalances, func(o *RebalancesOptions) *cli.Command {
		return &cli.Command{
			Name:  "rebalances",
			Usage: "the recent rebalances the status topic still shows: when, what seems to have started each, what stopped and for how long, restart times, and the last event's cost beside a plan's",
			Examples: `
connectscope inspect rebalances --from cluster.snapshot.json
connectscope -b broker:9092 inspect rebalances -o json --jq '.restarts[].away_ms'`,
			// The config topic and the group: the plan of the last event
			// starts from the connectors configured and the group's protocol.
			Spec:  cli.Spec{Read: cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true}, Result: (*history.Result)(nil)},
			Flags: o.Clock.Flags(cli.ClockHelp{MaxDelay: clockDefault, SessionTimeout: clockDefault, Heartbeat: clockDefault}),
		}
	})
}

// clockDefault is what applies to a clock flag of rebalances not given.
const clockDefault = "the --worker-config's, else for the delay what the last clean stop shows, else Kafka's"

func runRebalances(e *cli.Env, o *RebalancesOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	v := views.Of(ds)
	res := history.FromRecordsConfigured(ds.Topics.Status, v.StatusRecords(), history.ConfiguredFrom(v.Configs()))
	// The last event's plan takes the flags, else the first --worker-config's
	// delay, session timeout and heartbeat, else for the delay what the
	// history shows, else Kafka's defaults, said on stderr and in the notes.
	settings := timeline.Settings{Ctx: e.Ctx, Given: map[string]bool{}, MaxDelayMs: o.MaxDelayMs, SessionTimeoutMs: o.SessionTimeoutMs, HeartbeatIntervalMs: o.HeartbeatMs}
	if g := e.Globals; len(g.WorkerConfigs) > 0 {
		settings.WorkerPath, settings.Worker = g.WorkerConfigs[0].Path, g.WorkerConfigs[0].Props
	}
	ev := res.LastEvent
	if settings.MaxDelayMs == nil && settings.Worker[timeline.SettingMaxDelay] == "" && ev != nil && ev.ElsewhereAfterMs != nil {
		settings.MaxDelayMs = ev.ElsewhereAfterMs
		ev.Notes = append(ev.Notes, fmt.Sprintf("max delay taken as %s: the stopped worker's work first ran elsewhere that long after it stopped, which is the delay plus a round or two (give --%s to set it)", whatif.Millis(*ev.ElsewhereAfterMs), cli.FlagMaxDelay))
	}
	opts, err := settings.Options(cluster.State{})
	if err != nil {
		return cli.Exit(cli.ExitUsage, err)
	}
	if err := whatif.PredictLast(v, ev, opts); err != nil {
		return err
	}
	if ev != nil && len(ev.DefaultsAssumed) > 0 {
		fmt.Fprintf(e.IO.Err, "connectscope: the last event's plan assumes Kafka's defaults %s (no flag, worker file or history gives them; the cluster may run others: give --%s or --%s/--%s/--%s)\n",
			strings.Join(ev.DefaultsAssumed, ", "), cli.FlagWorkerConfig, cli.FlagMaxDelay, cli.FlagSessionTimeout, cli.FlagHeartbeat)
	}
	return e.Emit(res)
}
