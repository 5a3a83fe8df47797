package commands

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/internal/setting"
	"github.com/urfave/cli/v2"
)

// Flag names of the check commands (--kafka-version is shared with plan).
const (
	flagFailOn      = "fail-on"
	flagRestartTime = "restart-time"
	flagMaxDowntime = "max-downtime"
	flagMaxPutTime  = "max-put-time"
	flagTarget      = "target"
	flagExactlyOnce = "exactly-once"
	flagCapacity    = "capacity"
	flagZones       = "zones"
)

var checkCommand = &cli.Command{
	Name:  "check",
	Usage: "audit worker settings, protocol upgrades, internal topics and balance; exit 1 when a finding reaches --fail-on",
	Description: "Every finding names a rule of the catalogue (`connectscope check rules`), the values involved, why it\n" +
		"matters and how to fix it. Exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage, 3 unreadable input.\n" +
		"timeouts and upgrade work from --worker-config files alone and read the cluster only when --from or -b is given;\n" +
		"topics and balance need a dataset (--from FILE, -b, or a worker file's bootstrap.servers);\n" +
		"all uses every input any single check would, a worker file's bootstrap.servers included.",
	Subcommands: []*cli.Command{
		{
			Name:  "timeouts",
			Usage: "check timeout, delay and protocol settings of worker files against each other, the broker and the sink consumers",
			Description: "Examples:\n" +
				"  connectscope check timeouts --worker-config 'workers/*.properties'\n" +
				"  connectscope -b broker:9092 check timeouts --worker-config w1.properties --restart-time 90s",
			Flags:  append(checkFlags(), timingFlags()...),
			Action: action(runCheckTimeouts),
		},
		{
			Name:  "upgrade",
			Usage: "plan a rolling change of connect.protocol (and exactly.once.source.support) without ever worsening the group's protocol",
			Description: "Examples:\n" +
				"  connectscope check upgrade --worker-config 'workers/*.properties' --target sessioned\n" +
				"  connectscope -b broker:9092 check upgrade --worker-config 'workers/*.properties' --exactly-once enabled",
			Flags: append(checkFlags(),
				&cli.StringFlag{Name: flagTarget, Value: "sessioned", Usage: "protocol the group should run: `eager|compatible|sessioned`"},
				&cli.StringFlag{Name: flagExactlyOnce, Usage: "also roll exactly.once.source.support to `disabled|preparing|enabled` (two rolls when enabling)"},
			),
			Action: action(runCheckUpgrade),
		},
		{
			Name:  "topics",
			Usage: "check the internal topics: partitions, cleanup policy, replication, sharing between clusters",
			Description: "Examples:\n" +
				"  connectscope -b broker:9092 check topics\n" +
				"  connectscope check topics --from cluster.snapshot.json -o json",
			Flags:  checkFlags(),
			Action: action(runCheckTopics),
		},
		{
			Name:  "balance",
			Usage: "check the spread of connectors and tasks, failure headroom and zombie signs",
			Description: "Examples:\n" +
				"  connectscope -b broker:9092 check balance --capacity 20\n" +
				"  connectscope check balance --from cluster.snapshot.json --zones zones.txt",
			Flags:  append(checkFlags(), balanceFlags()...),
			Action: action(runCheckBalance),
		},
		{
			Name:  "all",
			Usage: "run every check whose inputs are available: one report, one exit status",
			Description: "Examples:\n" +
				"  connectscope check all --worker-config 'workers/*.properties' --fail-on warn\n" +
				"  connectscope check all --from cluster.snapshot.json -o jsonl --jq '.rule'",
			Flags: append(append(append(checkFlags(), timingFlags()...), balanceFlags()...),
				&cli.StringFlag{Name: flagTarget, Value: "sessioned", Usage: "upgrade target protocol: `eager|compatible|sessioned`"}),
			Action: action(runCheckAll),
		},
		{
			Name:  "rules",
			Usage: "print the catalogue of rules (-o wide adds why and fix)",
			Description: "Examples:\n" +
				"  connectscope check rules\n" +
				"  connectscope check rules -o wide",
			Action: action(runCheckRules),
		},
		{
			Name:  "explain",
			Usage: "explain one rule in full",
			Description: "Examples:\n" +
				"  connectscope check explain D1\n" +
				"  connectscope check explain T6 -o json",
			ArgsUsage: "RULE",
			Action:    action(runCheckExplain),
		},
	},
}

func checkFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagFailOn, Value: "error", Usage: "exit 1 when a finding of this `SEVERITY` or worse exists: error|warn|info"},
		&cli.StringFlag{Name: flagKafkaVersion, Usage: "Kafka `VERSION` of the workers (and brokers) for version-dependent rules; live, each worker's REST root is asked"},
	}
}

func timingFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagRestartTime, Usage: "typical worker restart `DURATION` (90s, 2m, or milliseconds) for rule D2"},
		&cli.StringFlag{Name: flagMaxDowntime, Usage: "longest acceptable outage of a crashed worker's pieces, `DURATION`, for rule D6"},
		&cli.StringFlag{Name: flagMaxPutTime, Usage: "worst-case sink put() + flush `DURATION`, for rule S3"},
	}
}

func balanceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: flagCapacity, Usage: "tasks one worker can run (`N`): checks that losing a worker or a zone leaves room"},
		&cli.StringFlag{Name: flagZones, Usage: "`FILE` of WORKER=ZONE lines (worker ids host:port as in status records)"},
	}
}

// checkOptions reads the flags shared by the checks.
func checkOptions(c *cli.Context, g Globals) (check.Options, check.Severity, error) {
	var o check.Options
	failOn, ok := check.ParseSeverity(c.String(flagFailOn))
	if !ok {
		return o, "", UsageErrorf("--fail-on %q: use error, warn or info", c.String(flagFailOn))
	}
	if v := c.String(flagKafkaVersion); v != "" {
		if _, err := kafkaversion.Parse(v); err != nil {
			return o, "", UsageErrorf("--kafka-version: %v", err)
		}
		o.KafkaVersion = v
	}
	var err error
	for _, d := range []struct {
		flag string
		into *int64
	}{{flagRestartTime, &o.RestartTimeMs}, {flagMaxDowntime, &o.MaxDowntimeMs}, {flagMaxPutTime, &o.MaxPutTimeMs}} {
		if !hasFlag(c, d.flag) {
			continue
		}
		if *d.into, err = parseMillis(d.flag, c.String(d.flag)); err != nil {
			return o, "", err
		}
	}
	if hasFlag(c, flagTarget) {
		o.Target = c.String(flagTarget)
		switch strings.ToLower(o.Target) {
		case "eager", "compatible", "sessioned":
		default:
			return o, "", UsageErrorf("--target %q: use eager, compatible or sessioned", o.Target)
		}
	}
	if hasFlag(c, flagExactlyOnce) {
		o.ExactlyOnce = c.String(flagExactlyOnce)
		switch strings.ToLower(o.ExactlyOnce) {
		case "", "disabled", "preparing", "enabled":
		default:
			return o, "", UsageErrorf("--exactly-once %q: use disabled, preparing or enabled", o.ExactlyOnce)
		}
	}
	if hasFlag(c, flagCapacity) {
		o.Capacity = c.Int(flagCapacity)
		if o.Capacity < 0 {
			return o, "", UsageErrorf("--capacity must not be negative, not %d", o.Capacity)
		}
	}
	if hasFlag(c, flagZones) && c.String(flagZones) != "" {
		path := c.String(flagZones)
		data, err := os.ReadFile(path)
		if err != nil {
			return o, "", InputError(fmt.Errorf("reading zones: %w", err))
		}
		if o.Zones, err = check.ParseZones(path, data); err != nil {
			return o, "", Exit(ExitUsage, inFlagTerms(err))
		}
	}
	o.Group = g.Group
	o.Context = c.Context
	return o, failOn, nil
}

// hasFlag reports whether the command defines flag (its value may be the default).
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// parseMillis accepts a Go duration (90s, 2m30s) or a plain number of
// milliseconds, as Kafka writes durations.
func parseMillis(flag, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, UsageErrorf("--%s %q: must not be negative", flag, s)
		}
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, UsageErrorf("--%s %q: give a duration such as 90s, 5m or 1h30m, or a number of milliseconds", flag, s)
	}
	return d.Milliseconds(), nil
}

// startCheck is how every check begins: no arguments, the check options,
// then the input (dataRequired: see checkData).
func startCheck(c *cli.Context, g Globals, dataRequired bool) (check.Options, check.Severity, *check.Decoded, error) {
	if err := noArgs(c); err != nil {
		return check.Options{}, "", nil, err
	}
	o, failOn, err := checkOptions(c, g)
	if err != nil {
		return check.Options{}, "", nil, err
	}
	d, err := checkData(c, g, dataRequired)
	if err != nil {
		return check.Options{}, "", nil, err
	}
	return o, failOn, d, nil
}

// checkData reads the dataset when one was asked for. With required false
// (timeouts, upgrade, all) only --from or an explicit -b trigger a read, so
// that worker files alone are checked offline.
func checkData(c *cli.Context, g Globals, required bool) (*check.Decoded, error) {
	if !required && g.From == "" && !g.Explicit(flagBootstrap) {
		return nil, nil
	}
	ds, err := loadDataset(c, g, readAll)
	if err != nil {
		return nil, err
	}
	// --kafka-version was checked by checkOptions; the decoders follow it too.
	v, _ := kafkaversion.Parse(c.String(flagKafkaVersion))
	return check.DecodeAs(ds, v), nil
}

// workerVersions asks each worker's REST root for its version: live only,
// and only when --kafka-version does not say it.
func workerVersions(c *cli.Context, g Globals, d *check.Decoded, o *check.Options) {
	if d == nil || !g.Live() || len(g.WorkerConfigs) == 0 || o.KafkaVersion != "" {
		return
	}
	timeout := min(5*time.Second, g.Timeout)
	o.WorkerVersions, _ = check.FetchWorkerVersions(c.Context, &http.Client{Timeout: timeout}, g.WorkerConfigs, d, timeout)
}

// finish prints the report and maps its findings to the exit status.
func finish(c *cli.Context, g Globals, report any, findings []check.Finding, failOn check.Severity) error {
	if !g.ShowSecrets {
		redactFindings(findings) // findings is the report's own slice: redacted in place
	}
	if err := emit(c, g, report); err != nil {
		return err
	}
	if check.Fails(findings, failOn) {
		s := check.Summarize(findings)
		return Exit(ExitFindings, fmt.Errorf("findings at or above %s: %d error, %d warn, %d info", failOn, s.Error, s.Warn, s.Info))
	}
	return nil
}

func needWorkers(g Globals, what string) error {
	if len(g.WorkerConfigs) == 0 {
		return UsageErrorf("%s needs worker config files: give --worker-config FILE (repeat it or quote a glob such as 'workers/*.properties')", what)
	}
	return nil
}

func runCheckTimeouts(c *cli.Context, g Globals) error {
	if err := needWorkers(g, "check timeouts"); err != nil {
		return err
	}
	o, failOn, d, err := startCheck(c, g, false)
	if err != nil {
		return err
	}
	workerVersions(c, g, d, &o)
	rep, err := check.Timeouts(check.TimeoutsFor(g.WorkerConfigs, d, o))
	if err != nil {
		return Exit(ExitUsage, inFlagTerms(err))
	}
	return finish(c, g, rep, rep.Findings, failOn)
}

func runCheckUpgrade(c *cli.Context, g Globals) error {
	o, failOn, d, err := startCheck(c, g, false)
	if err != nil {
		return err
	}
	if len(g.WorkerConfigs) == 0 && !d.HasGroup() {
		return UsageErrorf("check upgrade needs --worker-config files and/or the group (--from FILE or -b HOST:PORT)")
	}
	workerVersions(c, g, d, &o)
	rep, err := check.Upgrade(check.UpgradeFor(g.WorkerConfigs, d, o))
	if err != nil {
		return Exit(ExitUsage, inFlagTerms(err))
	}
	return finish(c, g, rep, rep.Findings, failOn)
}

func runCheckTopics(c *cli.Context, g Globals) error {
	o, failOn, d, err := startCheck(c, g, true)
	if err != nil {
		return err
	}
	in := d.TopicsInput(o.Group)
	in.Workers = g.WorkerConfigs
	rep := check.Topics(in)
	return finish(c, g, rep, rep.Findings, failOn)
}

func runCheckBalance(c *cli.Context, g Globals) error {
	o, failOn, d, err := startCheck(c, g, true)
	if err != nil {
		return err
	}
	if !d.HasGroup() {
		// As plan and inspect members: input of the wrong kind is a usage error.
		return UsageErrorf("check balance needs the Connect group's members: the input has none (read live with the workers' --group, or a snapshot with the group)")
	}
	in := d.BalanceInput()
	in.Capacity, in.Zones = o.Capacity, o.Zones
	rep := check.Balance(in)
	return finish(c, g, rep, rep.Findings, failOn)
}

func runCheckAll(c *cli.Context, g Globals) error {
	// all uses every input a single check would: a worker file's
	// bootstrap.servers reads the cluster, as `check topics` does with it.
	// When only the file points there and the cluster cannot be read, the
	// checks that need no cluster still run, with a note saying why the
	// others did not (an explicit -b or --from must work).
	implied := g.Live() && g.From == "" && !g.Explicit(flagBootstrap)
	o, failOn, d, err := startCheck(c, g, g.Live())
	var unread error
	if err != nil && implied && c.Context.Err() == nil && isInputError(err) {
		unread = err
		o, failOn, d, err = startCheck(c, g, false)
	}
	if err != nil {
		return err
	}
	if len(g.WorkerConfigs) == 0 && d == nil {
		return UsageErrorf("check all needs something to check: --worker-config FILE, --from FILE or -b HOST:PORT")
	}
	workerVersions(c, g, d, &o)
	rep, err := check.All(check.AllInput{Workers: g.WorkerConfigs, Data: d, Options: o, ClusterUnread: unread != nil})
	if err != nil {
		return Exit(ExitUsage, inFlagTerms(err))
	}
	if unread != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the cluster of the worker files' bootstrap.servers could not be read, so topics and balance did not run: %s", setting.Words(unread, flagName)))
	}
	rep.NameSettings(flagName)
	return finish(c, g, rep, rep.Findings, failOn)
}

// isInputError is an error with the unreadable-input status (3).
func isInputError(err error) bool {
	code, _ := exitStatus(err)
	return code == ExitInput
}

func runCheckRules(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	return emit(c, g, &check.Catalogue{Rules: check.Rules()})
}

func runCheckExplain(c *cli.Context, g Globals) error {
	if c.NArg() != 1 {
		return UsageErrorf("check explain takes one RULE id (e.g. T6), got %d arguments", c.NArg())
	}
	r, ok := check.RuleByID(c.Args().First())
	if !ok {
		return UsageErrorf("unknown rule %q: `connectscope check rules` lists them", c.Args().First())
	}
	return emit(c, g, &check.Explanation{Rule: r})
}
