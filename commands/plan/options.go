package plan

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
	urfave "github.com/urfave/cli/v2"
)

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
		HeartbeatEffect: "with it, changes until the members' next heartbeat share a round (half an interval before the plan's first round) and a crash is noticed from the last heartbeat",
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

// WhatIfOptions are the flags of the what-if plans (join, leave, scale,
// connector, rolling-restart): the plan flags, what to print, and a
// runbook's gates.
type WhatIfOptions struct {
	PlanOptions
	Explain bool // --explain: the time model's rules under the tables
	Compact bool // --compact: the compact JSON form
	// StateAfter is --state-after N: print every worker's holdings after
	// round N instead of the plan.
	StateAfter int
	GateOptions
}

// flags binds the what-if flags.
func (w *WhatIfOptions) flags() []urfave.Flag {
	return append(append(w.PlanOptions.flags(plotUsage),
		&urfave.BoolFlag{Name: "explain", Destination: &w.Explain,
			Usage: "also print the time model's rules and the settings assumed (the table shows the summary; -o wide adds the events and rounds)"},
		&urfave.BoolFlag{Name: flagCompact, Destination: &w.Compact,
			Usage: "the compact JSON form (-o json, jsonl, yaml, --jq): each round lists only the workers it revoked from or assigned to, with its totals, and each piece's outages are summed; for plans of hundreds of workers"},
		w.stateAfterFlag()),
		w.GateOptions.flags()...)
}

// detail is how much of each round and outage a plan must keep for the
// output asked for: the summary table shows neither, so a plan printed as
// a table keeps neither (a roll of a thousand workers kept gigabytes).
func (w *WhatIfOptions) detail(g cli.Globals) (timeline.Detail, error) {
	if w.StateAfter != 0 {
		return w.stateDetail(g)
	}
	switch {
	case g.JQ == "" && (g.Output == "" || g.Output == format.OutputTable):
		return timeline.DetailSummary, nil
	case w.Compact && (g.Output == format.OutputWide || g.Output == "mermaid"):
		return 0, cli.UsageErrorf("--%s is a JSON form: use it with -o json, jsonl or yaml, or --jq (-o %s shows every worker of every round)", flagCompact, g.Output)
	case w.Compact:
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
