package commands

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/plan"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/urfave/cli/v2"
)

// Flag names of the plan commands.
const (
	flagSynthetic      = "synthetic"
	flagKafkaVersion   = "kafka-version"
	flagJDK            = "jdk"
	flagProtocol       = "protocol"
	flagMaxDelay       = "max-delay"
	flagRoundTime      = "round-time"
	flagSessionTimeout = "session-timeout"
	flagStop           = "stop"
)

var planCommand = &cli.Command{
	Name:  "plan",
	Usage: "dry-run the Connect assignor: replay scenarios, preview joins, leaves, connector changes and rolling restarts",
	Description: "The what-if plans start from --from FILE (a snapshot or kcat dump with the group) or --synthetic, and\n" +
		"print every rebalance round under the group's cooperative protocol and under eager, side by side.",
	Subcommands: []*cli.Command{
		planReplayCommand(),
		planJoinCommand(),
		planLeaveCommand(),
		planConnectorCommand(),
		planRollingRestartCommand(),
		planAdviseCommand(),
	},
}

func planReplayCommand() *cli.Command {
	return &cli.Command{
		Name:  "replay",
		Usage: "replay a scenario file (scenario-format 1) through the assignor, round by round",
		Description: "Examples:\n" +
			"  connectscope plan replay scenario.json\n" +
			"  connectscope plan replay scenario.json -o json --jq '.rounds[] | .generation'",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: flagKafkaVersion, Usage: "replay the assignor of this Kafka `VERSION` (e.g. 3.3, 2.6.1; default: the current assignor, as in 3.7.0 to 4.4)"},
			&cli.IntFlag{Name: flagJDK, Value: 17, Usage: "JDK `MAJOR` version whose HashSet sizing decides some tie-breaks (17 as the test vectors; 19+ differs)"},
		},
		Action: action(func(c *cli.Context, g Globals) error {
			path, kafkaVersion, jdk := c.Args().First(), c.String(flagKafkaVersion), c.Int(flagJDK)
			if c.NArg() != 1 {
				// Flags after FILE are already read (flagsFirst): more is a mistake.
				return UsageErrorf("plan replay takes one scenario FILE, got %d arguments", c.NArg())
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return InputError(fmt.Errorf("reading scenario: %w", err))
			}
			sc, err := plan.ParseScenario(data)
			if err != nil {
				return Exit(ExitUsage, fmt.Errorf("%s: %w", path, err))
			}
			warnUnverifiedVersion(c, kafkaVersion)
			res, err := plan.Replay(sc, plan.ReplayOptions{KafkaVersion: kafkaVersion, JDK: jdk, Ctx: c.Context})
			if err != nil {
				return Exit(ExitUsage, fmt.Errorf("%s: %w", path, err))
			}
			return emit(c, g, res)
		}),
	}
}

// planCommonFlags are the flags every what-if plan takes.
func planCommonFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagSynthetic, Usage: "plan on a made-up cluster `SPEC`: workers=N,connectors=M[,tasks=K][,skew=S] (skew 0..1 moves that share of everyone's work to w1)"},
		&cli.StringFlag{Name: flagKafkaVersion, Usage: "assignor of this Kafka `VERSION` (default: the current assignor, as in 3.7.0 to 4.4)"},
		&cli.IntFlag{Name: flagJDK, Value: 17, Usage: "JDK `MAJOR` version of the leader (HashSet sizing tie-breaks)"},
		&cli.StringFlag{Name: flagProtocol, Usage: "the group's protocol `NAME`: eager|compatible|sessioned (default: the group's selected protocol, else the worker config's connect.protocol, else sessioned); both eager and cooperative are always shown"},
		&cli.StringFlag{Name: flagMaxDelay, Usage: "scheduled.rebalance.max.delay.ms as a `DURATION` (5m) or ms (default: the worker config's, else 300000)"},
		&cli.StringFlag{Name: flagRoundTime, Value: "2s", Usage: "how long one rebalance round takes (join, sync, stopping and starting work), `DURATION`"},
		&cli.StringFlag{Name: flagSessionTimeout, Usage: "session.timeout.ms as a `DURATION`: how long the group takes to notice a crashed worker (default: the worker config's, else 10s)"},
		plotFlag(),
	}
}

// planRun makes a what-if plan from the starting state.
type planRun func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error)

// planSubcommand is a what-if plan command: its own flags and the common
// plan flags. parse reads the command's flags before the input is loaded
// and returns what makes the plan from it.
func planSubcommand(name, usage string, flags []cli.Flag, parse func(c *cli.Context) (planRun, error)) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Flags: append(flags, planCommonFlags()...),
		Action: action(func(c *cli.Context, g Globals) error {
			if err := noArgs(c); err != nil {
				return err
			}
			run, err := parse(c)
			if err != nil {
				return err
			}
			if _, err := plotTarget(c); err != nil {
				return err
			}
			state, opts, err := planInputs(c, g)
			if err != nil {
				return err
			}
			res, err := run(state, opts)
			if err != nil {
				return err
			}
			return emitPlan(c, g, res)
		})}
}

// planFailed is a plan's refusal of its inputs, worded with the flags: a
// worker or connector the cluster does not hold is not found (exit 4), any
// other refusal a usage error.
func planFailed(err error) error {
	var nf *plan.NotFoundError
	if errors.As(err, &nf) {
		return Exit(ExitNotFound, inFlagTerms(err))
	}
	return Exit(ExitUsage, inFlagTerms(err))
}

func planJoinCommand() *cli.Command {
	return withExamples(planSubcommand("join", "preview workers joining the group", []cli.Flag{
		&cli.StringFlag{Name: "add", Required: true, Usage: "`N` new workers, or their member ids NAME,NAME,..."},
	}, func(c *cli.Context) (planRun, error) {
		return func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error) {
			add := strings.TrimSpace(c.String("add"))
			var names []string
			if n, err := strconv.Atoi(add); err == nil {
				if n <= 0 || n > 10000 {
					return nil, UsageErrorf("--add: want 1 to 10000 workers or a list of names, got %d", n)
				}
				names = plan.NewWorkerNames(state, n)
			} else {
				names = splitList([]string{add})
			}
			res, err := plan.JoinPlan(state, opts, names)
			if err != nil {
				return nil, planFailed(err)
			}
			return res, nil
		}, nil
	}), "connectscope plan join --from cluster.snapshot.json --add 1", "connectscope plan join --synthetic workers=4,connectors=20,tasks=3 --add 2 -o mermaid")
}

func planLeaveCommand() *cli.Command {
	return withExamples(planSubcommand("leave", "preview a worker leaving: the lost work held for the delay, and what happens if it returns or not", []cli.Flag{
		&cli.StringFlag{Name: "worker", Required: true, Usage: "the leaving worker `W`: its name (worker-2), HOST:PORT, REST URL, client id or member id"},
		&cli.StringFlag{Name: "returns-after", Usage: "also show the branch where it comes back (new member id, holding nothing) after this `DURATION`"},
		&cli.StringFlag{Name: flagStop, Value: plan.StopClean, Usage: "how it goes, `MODE`: clean (graceful shutdown, LeaveGroup) or crash (noticed after the session timeout)"},
	}, func(c *cli.Context) (planRun, error) {
		return func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error) {
			var back *int64
			if c.IsSet("returns-after") {
				ms, err := parseDurationMs("--returns-after", c.String("returns-after"))
				if err != nil {
					return nil, err
				}
				back = &ms
			}
			res, err := plan.LeavePlan(state, opts, c.String("worker"), c.String(flagStop), back)
			if err != nil {
				return nil, planFailed(err)
			}
			return res, nil
		}, nil
	}), "connectscope plan leave --from cluster.snapshot.json --worker worker-2 --stop crash", "connectscope -b broker:9092 plan leave --worker 10.0.1.12:8083 --returns-after 2m")
}

func planConnectorCommand() *cli.Command {
	return withExamples(planSubcommand("connector", "preview changing task counts, adding or removing connectors", []cli.Flag{
		&cli.StringSliceFlag{Name: "set", Usage: "change a connector's task count, `NAME=TASKS` (repeatable)"},
		&cli.StringSliceFlag{Name: "add", Usage: "create a connector with TASKS tasks, `NAME=TASKS` (repeatable)"},
		&cli.StringSliceFlag{Name: "remove", Usage: "delete a connector `NAME` (repeatable)"},
	}, func(c *cli.Context) (planRun, error) {
		set, err := parseNameTasks("--set", c.StringSlice("set"))
		if err != nil {
			return nil, err
		}
		add, err := parseNameTasks("--add", c.StringSlice("add"))
		if err != nil {
			return nil, err
		}
		change := plan.ConnectorChange{Set: set, Add: add, Remove: splitList(c.StringSlice("remove"))}
		return func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error) {
			res, err := plan.ConnectorPlan(state, opts, change)
			if err != nil {
				return nil, planFailed(err)
			}
			return res, nil
		}, nil
	}), "connectscope plan connector --from cluster.snapshot.json --set orders=8", "connectscope plan connector --from cluster.snapshot.json --add audit=2 --remove old-sink")
}

func planRollingRestartCommand() *cli.Command {
	return withExamples(planSubcommand("rolling-restart", "preview restarting every worker one at a time: a timeline over the whole roll", []cli.Flag{
		&cli.StringFlag{Name: "restart-time", Required: true, Usage: "how long a worker is away, from stop to rejoin, `DURATION`"},
		&cli.StringFlag{Name: "order", Usage: "restart order `W1,W2,...` (default: members in group order, the leader last)"},
		&cli.StringFlag{Name: flagStop, Value: plan.StopClean, Usage: "how each worker stops, `MODE`: clean (LeaveGroup) or crash (noticed after the session timeout)"},
	}, func(c *cli.Context) (planRun, error) {
		restart, err := parseDurationMs("--restart-time", c.String("restart-time"))
		if err != nil {
			return nil, err
		}
		return func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error) {
			order := splitList([]string{c.String("order")})
			if err := orderNamesEveryWorker(state, order); err != nil {
				return nil, err
			}
			res, err := plan.RollingRestartPlan(state, opts, restart, c.String(flagStop), order)
			if err != nil {
				return nil, planFailed(err)
			}
			return res, nil
		}, nil
	}), "connectscope plan rolling-restart --from cluster.snapshot.json --restart-time 90s", "connectscope -b broker:9092 plan rolling-restart --restart-time 2m --order worker-1,worker-2,worker-3")
}

// orderNamesEveryWorker refuses an --order that leaves workers out: the
// plan is a roll of the whole group, and a forgotten worker would make its
// cost look smaller than the real roll's. Names the plan cannot resolve are
// left for it to report.
func orderNamesEveryWorker(state plan.ClusterState, order []string) error {
	if len(order) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, o := range order {
		if id, err := state.ResolveWorker(o); err == nil {
			listed[id] = true
		}
	}
	var missing []string
	for _, w := range state.Workers {
		if !listed[w.ID] {
			missing = append(missing, state.Label(w.ID))
		}
	}
	if len(missing) > 0 && len(listed) == len(order) {
		return UsageErrorf("--order leaves out %s: list every worker, the roll restarts them all", strings.Join(missing, ", "))
	}
	return nil
}

// planInputs resolves the starting state (--synthetic or the dataset) and
// the assignor and time settings: flag, else worker config, else default.
func planInputs(c *cli.Context, g Globals) (plan.ClusterState, plan.PlanOptions, error) {
	var state plan.ClusterState
	if spec := c.String(flagSynthetic); c.IsSet(flagSynthetic) {
		if g.From != "" {
			return state, plan.PlanOptions{}, UsageErrorf("--synthetic and --from both give the starting state; use one")
		}
		s, err := plan.ParseSynthetic(spec)
		if err != nil {
			return state, plan.PlanOptions{}, Exit(ExitUsage, inFlagTerms(err))
		}
		state = plan.SyntheticState(s)
	} else {
		ds, err := loadDataset(c, g, readPlan)
		if err != nil {
			return state, plan.PlanOptions{}, err
		}
		state, err = plan.StateFromDataset(decoded.Decode(ds, store.DecodeOptions{}))
		if err != nil {
			return state, plan.PlanOptions{}, Exit(ExitUsage, inFlagTerms(err))
		}
	}
	opts := plan.PlanOptions{KafkaVersion: c.String(flagKafkaVersion), JDK: c.Int(flagJDK), Ctx: c.Context}
	warnUnverifiedVersion(c, opts.KafkaVersion)
	worker := func(key string) string {
		if len(g.WorkerConfigs) == 0 {
			return ""
		}
		return strings.TrimSpace(g.WorkerConfigs[0].Props[key])
	}
	switch p := strings.ToLower(c.String(flagProtocol)); p {
	case "eager", "default", "compatible", "sessioned":
		opts.Protocol = p
	case "":
		if state.Protocol == "" {
			opts.Protocol = strings.ToLower(worker("connect.protocol"))
		}
	default:
		return state, opts, UsageErrorf("--protocol: want eager, compatible or sessioned, got %q", p)
	}
	var err error
	if opts.MaxDelayMs, err = msSetting(c, flagMaxDelay, g, "scheduled.rebalance.max.delay.ms", plan.DefaultMaxDelayMs); err != nil {
		return state, opts, err
	}
	if opts.SessionTimeoutMs, err = msSetting(c, flagSessionTimeout, g, "session.timeout.ms", plan.DefaultSessionTimeoutMs); err != nil {
		return state, opts, err
	}
	if opts.RoundTimeMs, err = parseDurationMs("--"+flagRoundTime, c.String(flagRoundTime)); err != nil {
		return state, opts, err
	}
	// Each setting alone, so the error names the flag that is wrong.
	for _, s := range []struct {
		flag string
		cfg  assignor.SimConfig
	}{
		{flagKafkaVersion, assignor.SimConfig{KafkaVersion: opts.KafkaVersion}},
		{flagJDK, assignor.SimConfig{JDK: opts.JDK}},
		{flagMaxDelay, assignor.SimConfig{MaxDelayMs: opts.MaxDelayMs, KafkaVersion: opts.KafkaVersion}},
	} {
		if _, err := assignor.NewSim(s.cfg); err != nil {
			return state, opts, UsageErrorf("--%s: %v", s.flag, err)
		}
	}
	return state, opts, nil
}

// msSetting is a duration flag, else the first worker config's value of key
// in ms, else def.
func msSetting(c *cli.Context, flag string, g Globals, key string, def int64) (int64, error) {
	if c.IsSet(flag) {
		return parseDurationMs("--"+flag, c.String(flag))
	}
	if len(g.WorkerConfigs) == 0 {
		return def, nil
	}
	w := g.WorkerConfigs[0]
	fromWorker := strings.TrimSpace(w.Props[key])
	if fromWorker == "" {
		return def, nil
	}
	v, err := strconv.ParseInt(fromWorker, 10, 64)
	if err != nil || v < 0 {
		return 0, UsageErrorf("%s: %s = %q: Kafka takes a whole number of milliseconds here; fix the file or give --%s", w.Path, key, fromWorker, flag)
	}
	return v, nil
}

// parseDurationMs accepts a Go duration (90s, 5m, 1m30s) or a plain number
// of milliseconds.
func parseDurationMs(flag, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, UsageErrorf("%s: must not be negative, got %s", flag, s)
		}
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, UsageErrorf("%s: want a duration like 90s or 5m, or milliseconds, got %q", flag, s)
	}
	if d < 0 {
		return 0, UsageErrorf("%s: must not be negative, got %s", flag, s)
	}
	return d.Milliseconds(), nil
}

// parseNameTasks reads NAME=TASKS values.
func parseNameTasks(flag string, vals []string) (map[string]int, error) {
	out := map[string]int{}
	for _, v := range splitList(vals) {
		name, n, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, UsageErrorf("%s: want NAME=TASKS, got %q", flag, v)
		}
		tasks, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || tasks < 0 {
			return nil, UsageErrorf("%s %s: TASKS must be a non-negative integer, got %q", flag, name, n)
		}
		if _, dup := out[name]; dup {
			return nil, UsageErrorf("%s: %s given twice", flag, name)
		}
		out[name] = tasks
	}
	return out, nil
}

// warnUnverifiedVersion says on stderr that a Kafka version newer than the
// verified assignors is replayed with the newest verified line's behaviour,
// so nobody takes the preview for a verified answer.
func warnUnverifiedVersion(c *cli.Context, version string) {
	if assignor.BeyondVerified(version) {
		fmt.Fprintf(c.App.ErrWriter, "connectscope: warning: --kafka-version %s is newer than the assignors connectscope was checked against (2.3 to %s); replaying %s's behaviour\n", version, assignor.NewestVerifiedLine(), assignor.NewestVerifiedLine())
	}
}
