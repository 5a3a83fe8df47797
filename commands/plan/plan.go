// Package plan is the `plan` noun: one file per verb (replay, join, leave,
// connector, rolling-restart, advise). The plans themselves are package
// plan's (connectscope/plan).
package plan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

// NewCmdPlan is the `plan` noun with its verbs.
func NewCmdPlan() *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "dry-run the Connect assignor: replay scenarios, preview joins, leaves, scaling, connector changes and rolling restarts",
		Description: `
The what-if plans start from --from FILE (a snapshot or kcat dump with the group) or --synthetic, and
print every rebalance round under the group's cooperative protocol and under eager, side by side.`,
		Subcommands: []*cli.Command{
			NewCmdReplay(nil),
			NewCmdJoin(nil),
			NewCmdLeave(nil),
			NewCmdScale(nil),
			NewCmdConnector(nil),
			NewCmdRollingRestart(nil),
			NewCmdAdvise(nil),
		},
	}
}

// Flag names the plan verbs share.
const (
	flagSynthetic      = "synthetic"
	flagKafkaVersion   = cli.FlagKafkaVersion
	flagJDK            = "jdk"
	flagProtocol       = "protocol"
	flagMaxDelay       = cli.FlagMaxDelay
	flagRoundTime      = "round-time"
	flagSessionTimeout = cli.FlagSessionTimeout
	flagHeartbeat      = cli.FlagHeartbeat
	flagPace           = "pace"
	flagStop           = "stop"
	flagPlot           = "plot"
	flagRestartTime    = "restart-time"
	flagOrder          = "order"
	flagCompact        = "compact"
)

// PlanOptions are the flags every what-if plan takes: the starting state
// and the assignor and time settings.
type PlanOptions struct {
	Synthetic    string
	KafkaVersion kafkaversion.Version
	JDK          int
	Protocol     timeline.Protocol // "" unless given
	cli.Clock                      // --max-delay, --session-timeout, --heartbeat-interval
	RoundTimeMs  int64
	Plot         string // --plot FILE
	Explain      bool   // --explain: the time model's rules under the tables
	Compact      bool   // --compact: the compact JSON form
	// restart, set by a verb given a restart time of auto, has planInputs
	// give each worker its measured restart time (restarts.go).
	restart *restartInput
}

// flags binds the common plan flags; plotUsage says what --plot draws.
func (p *PlanOptions) flags(plotUsage string) []urfave.Flag {
	clock := p.Clock.Flags(cli.ClockHelp{
		MaxDelay:        "the worker config's, else 300000",
		SessionTimeout:  "the worker config's, else 10s",
		Heartbeat:       "the worker config's, else unknown: one round per change",
		HeartbeatEffect: "with it, changes within half an interval share a round and a crash is noticed from the last heartbeat",
	})
	return []urfave.Flag{
		&urfave.StringFlag{Name: flagSynthetic, Destination: &p.Synthetic, Usage: "plan on a made-up cluster `SPEC`: workers=N,connectors=M[,tasks=K][,skew=S] (skew 0..1 moves that share of everyone's work to w1)"},
		cli.KafkaVersionFlag(&p.KafkaVersion, "assignor of this Kafka `VERSION` (default: the current assignor, as in 3.7.0 to 4.4)"),
		&urfave.IntFlag{Name: flagJDK, Value: 17, Destination: &p.JDK, Usage: "JDK `MAJOR` version of the leader (HashSet sizing tie-breaks)"},
		protocolFlag(&p.Protocol, "the group's protocol `NAME`: eager|compatible|sessioned (default: the group's selected protocol, else the worker config's connect.protocol, else sessioned); both eager and cooperative are always shown"),
		clock[0], // --max-delay, then --round-time, as help has always listed them
		cli.DurationMsFlag(flagRoundTime, &p.RoundTimeMs, "2s", "how long one rebalance round takes (join, sync, stopping and starting work), `DURATION`"),
		clock[1], clock[2],
		&urfave.StringFlag{Name: flagPlot, Destination: &p.Plot, Usage: plotUsage},
	}
}

// protocolFlag is --protocol, read once into dest.
func protocolFlag(dest *timeline.Protocol, usage string) urfave.Flag {
	return cli.ValueFlag(flagProtocol, dest, timeline.ParseProtocol, usage)
}

// protocolValues complete --protocol.
var protocolValues = cli.Fixed(string(timeline.ProtocolEager), string(timeline.ProtocolCompatible), string(timeline.ProtocolSessioned))

// whatIfFlags are flags plus --explain, for the plans that print the time
// model's rules.
func (p *PlanOptions) whatIfFlags(plotUsage string) []urfave.Flag {
	return append(p.flags(plotUsage), &urfave.BoolFlag{Name: "explain", Destination: &p.Explain,
		Usage: "also print the time model's rules and the settings assumed (the table shows the summary; -o wide adds the events and rounds)"},
		&urfave.BoolFlag{Name: flagCompact, Destination: &p.Compact,
			Usage: "the compact JSON form (-o json, jsonl, yaml, --jq): each round lists only the workers it revoked from or assigned to, with its totals, and each piece's outages are summed; for plans of hundreds of workers"})
}

// detail is how much of each round and outage a plan must keep for the
// output asked for: the summary table shows neither, so a plan printed as
// a table keeps neither (a roll of a thousand workers kept gigabytes).
func (p *PlanOptions) detail(g cli.Globals) (timeline.Detail, error) {
	switch {
	case g.JQ == "" && (g.Output == "" || g.Output == format.OutputTable):
		return timeline.DetailSummary, nil
	case p.Compact && (g.Output == format.OutputWide || g.Output == "mermaid"):
		return 0, cli.UsageErrorf("--%s is a JSON form: use it with -o json, jsonl or yaml, or --jq (-o %s shows every worker of every round)", flagCompact, g.Output)
	case p.Compact:
		return timeline.DetailCompact, nil
	}
	return timeline.DetailFull, nil
}

// inputs are the plan package's named inputs and the flags that give them.
var inputs = map[string]string{
	"Protocol":       flagProtocol,
	"KafkaVersion":   flagKafkaVersion,
	"JDK":            flagJDK,
	"MaxDelay":       flagMaxDelay,
	"SessionTimeout": flagSessionTimeout,
	"NewWorkers":     "add",
	"Worker":         "worker",
	"ReturnsAfter":   "returns-after",
	"Stop":           flagStop,
	"Set":            "set",
	"Add":            "add",
	"Remove":         "remove",
	"RestartTime":    flagRestartTime,
	"Order":          flagOrder,
	"Delays":         flagDelays,
	"Pacing":         flagPacing,
	"Pace":           flagPace,
	"To":             "to",
	"Step":           "step",
	"Heartbeat":      flagHeartbeat,
}

// whatIfSpec is the spec of the what-if plans: they start from the configs
// and the group, and also draw mermaid.
func whatIfSpec(values map[string]cli.Candidates) cli.Spec {
	values[flagProtocol] = protocolValues
	return cli.Spec{
		Read:    cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true, SettleGroup: true}, // status: the pending state (plan/cluster/pending.go)
		Outputs: []string{"mermaid"},
		Result:  (*whatif.PlanResult)(nil),
		Inputs:  inputs,
		Values:  values,
	}
}

// whatIf makes a what-if plan: the --plot file checked, the starting state
// and settings resolved, then make, then the result printed (and drawn).
func whatIf(e *cli.Env, p *PlanOptions, g *GateOptions, make func(cluster.State, timeline.Options) (*whatif.PlanResult, error)) error {
	if _, err := plotTarget(p.Plot); err != nil {
		return err
	}
	gates, err := g.gates(e)
	if err != nil {
		return err
	}
	detail, err := p.detail(e.Globals)
	if err != nil {
		return err
	}
	state, opts, err := planInputs(e, p)
	if err != nil {
		return err
	}
	opts.Detail = detail
	opts.NoPlot = p.Plot == ""
	res, err := make(state, opts)
	if err != nil {
		return err
	}
	warnDefaults(e, res.Assumptions.Settings)
	res.Explain = p.Explain
	breaches := res.ApplyGates(gates)
	var out any = res
	if p.Compact {
		out = res.Compact()
	}
	if err := emitPlan(e, p.Plot, res, out); err != nil {
		return err
	}
	return gateFailed(breaches)
}

// planFailed is a plan's refusal of its inputs, worded with the flags: a
// worker or connector the cluster does not hold is not found (exit 4), any
// other refusal a usage error.
func planFailed(err error) error {
	var nf *cluster.NotFoundError
	if errors.As(err, &nf) {
		return cli.Exit(cli.ExitNotFound, inFlagTerms(err))
	}
	return cli.Exit(cli.ExitUsage, inFlagTerms(err))
}

// inFlagTerms words the plan package's own errors about its inputs with the
// flags behind them; named inputs (field.Error) are the kit's, through the
// verb's Spec.Inputs.
func inFlagTerms(err error) error {
	var se *cluster.SyntheticError
	var ss *cluster.StartingStateError
	var ws *timeline.WorkerSettingError
	switch {
	case errors.As(err, &se):
		return &cli.FlagWordsError{Msg: "--" + flagSynthetic + ": " + se.Problem(), Err: err}
	case errors.As(err, &ss):
		return &cli.FlagWordsError{Msg: ss.Msg + " (--" + flagSynthetic + ")", Err: err}
	case errors.As(err, &ws):
		return &cli.FlagWordsError{Msg: strings.Replace(ws.Error(), "give "+ws.Input, "give --"+inputs[ws.Input], 1), Err: err}
	case errors.Is(err, whatif.ErrNothingToChange):
		return &cli.FlagWordsError{Msg: "nothing to change: give --set, --add or --remove", Err: err}
	}
	return err
}

// planInputs resolves the starting state (--synthetic or the dataset) and
// the assignor and time settings: flag, else worker config, else default.
func planInputs(e *cli.Env, p *PlanOptions) (cluster.State, timeline.Options, error) {
	g := e.Globals
	var state cluster.State
	var ds *inspect.Dataset
	if e.Given(flagSynthetic) {
		if g.From != "" {
			return state, timeline.Options{}, cli.UsageErrorf("--synthetic and --from both give the starting state; use one")
		}
		s, err := cluster.ParseSynthetic(p.Synthetic)
		if err != nil {
			return state, timeline.Options{}, cli.Exit(cli.ExitUsage, inFlagTerms(err))
		}
		state = cluster.SyntheticState(s)
	} else {
		var err error
		if ds, err = e.Dataset(); err != nil {
			return state, timeline.Options{}, err
		}
		state, err = cluster.StateFromDataset(views.Of(ds))
		if err != nil {
			return state, timeline.Options{}, cli.Exit(cli.ExitUsage, inFlagTerms(err))
		}
	}
	settings := timeline.Settings{KafkaVersion: p.KafkaVersion, JDK: p.JDK, Protocol: p.Protocol, Ctx: e.Ctx, Given: map[string]bool{},
		MaxDelayMs: p.MaxDelayMs, SessionTimeoutMs: p.SessionTimeoutMs, HeartbeatIntervalMs: p.HeartbeatMs, RoundTimeMs: p.RoundTimeMs}
	for flag, setting := range map[string]string{flagKafkaVersion: timeline.SettingKafkaVersion, flagJDK: timeline.SettingJDK, flagRoundTime: timeline.SettingRoundTime, flagProtocol: timeline.SettingProtocol} {
		settings.Given[setting] = e.Given(flag)
	}
	warnUnverifiedVersion(e, p.KafkaVersion)
	if len(g.WorkerConfigs) > 0 {
		settings.WorkerPath, settings.Worker = g.WorkerConfigs[0].Path, g.WorkerConfigs[0].Props
		settings.WorkerSource = timeline.SourceWorkerFile
		if g.FromContext(cli.FlagWorkerConfig) {
			settings.WorkerSource = timeline.SourceContext
		}
	}
	opts, err := settings.Options(state)
	if err != nil {
		return state, opts, cli.Exit(cli.ExitUsage, inFlagTerms(err))
	}
	if p.restart != nil && p.restart.auto {
		opts.Restarts, err = p.restart.measured(e, state, ds)
	}
	return state, opts, err
}

// warnDefaults says in one line on stderr that a live plan ran with Kafka's
// defaults for settings the cluster decides (they are in the JSON's
// assumptions.settings with source "default" too).
func warnDefaults(e *cli.Env, settings []timeline.SettingSource) {
	if !e.Globals.Live() {
		return
	}
	if d := timeline.DefaultsAssumed(settings); len(d) > 0 {
		fmt.Fprintf(e.IO.Err, "connectscope: plan assumes Kafka's defaults %s (no flag, worker file or context gives them; the cluster may run others: give --%s or --%s/--%s)\n",
			strings.Join(d, ", "), cli.FlagWorkerConfig, flagMaxDelay, flagSessionTimeout)
	}
}

// parseDurationMs accepts a Go duration (90s, 5m, 1m30s) or a plain number
// of milliseconds.
func parseDurationMs(flag, s string) (int64, error) {
	ms, err := durationMs(s)
	if err != nil {
		return 0, cli.UsageErrorf("%s: %v", flag, err)
	}
	return ms, nil
}

// durationMs reads a duration (90s, 5m) or milliseconds, never negative.
func durationMs(s string) (int64, error) { return cli.DurationMs(s) }

// paceFlag is --pace of the what-if plans, read once into dest (0, all at
// once, unless given).
func paceFlag(dest *int64, usage string) urfave.Flag {
	return cli.ValueFlag(flagPace, dest, durationMs, usage)
}

// planned is a what-if plan's result, its error worded as a plan that
// could not be made.
func planned(res *whatif.PlanResult, err error) (*whatif.PlanResult, error) {
	if err != nil {
		return nil, planFailed(err)
	}
	return res, nil
}

// warnUnverifiedVersion says on stderr that a Kafka version newer than the
// verified assignors is replayed with the newest verified line's behaviour,
// so nobody takes the preview for a verified answer.
func warnUnverifiedVersion(e *cli.Env, version kafkaversion.Version) {
	if beyond, newest := timeline.VersionBeyondVerified(version); beyond {
		fmt.Fprintf(e.IO.Err, "connectscope: warning: --kafka-version %s is newer than the assignors connectscope was checked against (2.3 to %s); replaying %s's behaviour\n", version, newest, newest)
	}
}

// stopValues complete --stop.
var stopValues = cli.Fixed(string(whatif.StopClean), string(whatif.StopCrash))

// stopFlag is --stop of the what-if plans, read once into dest: clean
// unless given.
func stopFlag(dest *whatif.Stop, usage string) urfave.Flag {
	*dest = whatif.StopClean
	f := cli.ValueFlag(flagStop, dest, whatif.ParseStop, usage)
	f.Value = string(whatif.StopClean)
	return f
}

// parseStops reads advise's --stop: stop modes, comma-separated.
func parseStops(s string) ([]whatif.Stop, error) {
	var out []whatif.Stop
	for _, m := range cli.SplitList([]string{s}) {
		stop, err := whatif.ParseStop(strings.ToLower(m))
		if err != nil {
			return nil, fmt.Errorf("want clean or crash, got %q", strings.ToLower(m))
		}
		out = append(out, stop)
	}
	return out, nil
}
