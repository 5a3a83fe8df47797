// Package check is the `check` noun: one file per verb (timeouts, upgrade,
// topics, balance, all, rules, explain). The rules are package check's
// (connectscope/check).
package check

import (
	"fmt"
	"io"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	urfave "github.com/urfave/cli/v2"
)

// NewCmdCheck is the `check` noun with its verbs.
func NewCmdCheck() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "audit worker settings, protocol upgrades, internal topics and balance; exit 1 when a finding reaches --fail-on",
		Description: "Every finding names a rule of the catalogue (`connectscope check rules`), the values involved, why it\n" +
			"matters and how to fix it. Exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage, 3 unreadable input.\n" +
			"timeouts and upgrade work from --worker-config files alone and read the cluster only when --from or -b is given;\n" +
			"topics and balance need a dataset (--from FILE, -b, or a worker file's bootstrap.servers);\n" +
			"all uses every input any single check would, a worker file's bootstrap.servers included.",
		Subcommands: []*cli.Command{
			NewCmdTimeouts(nil),
			NewCmdUpgrade(nil),
			NewCmdTopics(nil),
			NewCmdBalance(nil),
			NewCmdAll(nil),
			NewCmdRules(nil),
			NewCmdExplain(nil),
		},
	}
}

// Flag names of the check verbs.
const (
	flagFailOn      = "fail-on"
	flagRestartTime = "restart-time"
	flagMaxDowntime = "max-downtime"
	flagMaxPutTime  = "max-put-time"
	flagTarget      = "target"
	flagExactlyOnce = "exactly-once"
	flagCapacity    = "capacity"
	flagZones       = "zones"
	flagIgnore      = "ignore"
	flagOnly        = "only"
	flagWaivers     = "waivers"
)

// CheckOptions are the flags every check takes.
type CheckOptions struct {
	FailOn       check.Severity // read at the flag: error unless given
	KafkaVersion kafkaversion.Version
	Ignore       urfave.StringSlice
	Only         urfave.StringSlice
	Waivers      string
	filter       *check.Filter // from Ignore, Only and Waivers, read by options
}

func (o *CheckOptions) flags() []urfave.Flag {
	o.FailOn = check.Error
	return []urfave.Flag{
		&urfave.StringFlag{Name: flagFailOn, Value: string(check.Error), Usage: "exit 1 when a finding of this `SEVERITY` or worse exists: error|warn|info",
			Action: func(c *urfave.Context, s string) error {
				sev, ok := check.ParseSeverity(s)
				if !ok {
					return cli.ActionFailed(c, cli.UsageErrorf("--fail-on %q: use error, warn or info", s))
				}
				o.FailOn = sev
				return nil
			}},
		cli.KafkaVersionFlag(&o.KafkaVersion, "Kafka `VERSION` of the workers (and brokers) for version-dependent rules; live, each worker's REST root is asked"),
		&urfave.StringSliceFlag{Name: flagIgnore, Destination: &o.Ignore, Usage: "waive every finding of these `RULES` (comma-separated or repeated): listed as waived, not counted for the exit status"},
		&urfave.StringSliceFlag{Name: flagOnly, Destination: &o.Only, Usage: "count only findings of these `RULES`; the others are listed as waived"},
		&urfave.StringFlag{Name: flagWaivers, Destination: &o.Waivers, Usage: "waiver `FILE` (YAML or JSON): rule, subject pattern, reason, expires; an expired waiver is finding W1"},
	}
}

// targetFlag is --target, the protocol the group should run, read once
// into dest: sessioned unless given.
func targetFlag(dest *check.Protocol, usage string) urfave.Flag {
	*dest = "sessioned"
	f := cli.ValueFlag(flagTarget, dest, check.ParseProtocol, usage)
	f.Value = "sessioned"
	return f
}

// inputs are package check's named inputs and the flags that give them.
var inputs = map[string]string{
	"Target":      flagTarget,
	"ExactlyOnce": flagExactlyOnce,
	"Ignore":      flagIgnore,
	"Only":        flagOnly,
	"Waivers":     flagWaivers,
	"To":          flagTo,
}

// checkSpec is the spec the checks share: every topic and group when they
// read a cluster, the named inputs, the values of their flags.
func checkSpec(result any) cli.Spec {
	return cli.Spec{
		Result: result,
		Inputs: inputs,
		Values: map[string]cli.Candidates{
			flagFailOn: cli.Fixed("error", "warn", "info"),
			flagTarget: cli.Fixed("eager", "compatible", "sessioned"),
			flagTo:     cli.Fixed("4.x", "4.0", "4.1", "4.2", "4.3", "4.4", "5.0"),
			flagIgnore: ruleIDs,
			flagOnly:   ruleIDs,
		},
	}
}

// options reads the flags shared by the checks, then each verb adds its own.
func (o *CheckOptions) options(e *cli.Env) (check.Options, check.Severity, error) {
	var opts check.Options
	failOn := o.FailOn
	if failOn == "" {
		failOn = check.Error // options built by hand
	}
	filter, err := o.readFilter()
	if err != nil {
		return opts, "", err
	}
	o.filter = filter
	opts.KafkaVersion = o.KafkaVersion
	opts.Group = e.Globals.Group
	opts.Context = e.Ctx
	return opts, failOn, nil
}

// read reads a check's inputs: the flags shared by the checks, then the
// verb's own (more), then the dataset (checkData: required says the check
// cannot do without one).
func (o *CheckOptions) read(e *cli.Env, required bool, more ...func(*check.Options) error) (check.Options, check.Severity, *check.Decoded, error) {
	opts, failOn, err := o.options(e)
	if err != nil {
		return opts, failOn, nil, err
	}
	for _, m := range more {
		if err := m(&opts); err != nil {
			return opts, failOn, nil, err
		}
	}
	d, err := checkData(e, *o, required)
	return opts, failOn, d, err
}

// readFilter reads --ignore, --only and --waivers before anything else is
// read: a bad rule id or waiver file is a usage error, a missing file an
// input error.
func (o *CheckOptions) readFilter() (*check.Filter, error) {
	f := &check.Filter{Now: time.Now().UTC()}
	var err error
	if f.Ignore, err = check.ParseRuleList("Ignore", o.Ignore.Value()); err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	if f.Only, err = check.ParseRuleList("Only", o.Only.Value()); err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	if o.Waivers != "" {
		data, err := readWaivers(o.Waivers)
		if err != nil {
			return nil, cli.InputError(fmt.Errorf("reading waivers: %w", err))
		}
		if f.Waivers, err = check.ParseWaivers(o.Waivers, data); err != nil {
			return nil, cli.Exit(cli.ExitUsage, err)
		}
	}
	return f, nil
}

// readWaivers reads at most one byte more than a waiver file may hold, so
// that a huge file is refused by its size, not read whole.
func readWaivers(path string) ([]byte, error) {
	f, err := boundedfile.Open(path) // a FIFO or a device is refused, never waited on
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, check.MaxWaiverFile+1))
}

// checkData reads the dataset when one was asked for. With required false
// (timeouts, upgrade, all) only --from or an explicit -b trigger a read, so
// that worker files alone are checked offline.
func checkData(e *cli.Env, o CheckOptions, required bool) (*check.Decoded, error) {
	g := e.Globals
	if !required && g.From == "" && !g.Explicit(cli.FlagBootstrap) {
		return nil, nil
	}
	ds, err := e.Dataset()
	if err != nil {
		return nil, err
	}
	return check.DecodeAs(ds, o.KafkaVersion), nil // the decoders follow --kafka-version too
}

// workerVersions asks each worker's REST root for its version: live only,
// and only when --kafka-version does not say it.
func workerVersions(e *cli.Env, d *check.Decoded, o *check.Options) error {
	g := e.Globals
	if d == nil || !g.Live() || len(g.WorkerConfigs) == 0 || o.KafkaVersion.Known {
		return nil
	}
	// The shared REST client: its redaction (unless --show-secrets), and
	// the Env's transport.
	per := e.RESTTimeout()
	client, err := (&cli.RESTOptions{PerRequest: per, Total: 3 * per}).Client(e)
	if err != nil {
		return err
	}
	defer client.Close()
	o.WorkerVersions, o.WorkerFindings = check.FetchWorkerVersions(e.Ctx, client, g.WorkerConfigs, d)
	return nil
}

// finish waives what --ignore, --only and --waivers say, prints the report
// and maps the findings that count to the exit status.
func finish(e *cli.Env, o CheckOptions, report any, failOn check.Severity) error {
	check.Waive(report, o.filter)
	findings := check.FindingsOf(report)
	if !e.Globals.ShowSecrets {
		check.RedactFindings(findings) // findings is the report's own slice: redacted in place
	}
	if err := e.Emit(report); err != nil {
		return err
	}
	if check.Fails(findings, failOn) {
		s := check.Summarize(findings)
		return cli.Exit(cli.ExitFindings, fmt.Errorf("findings at or above %s: %d error, %d warn, %d info%s", failOn, s.Error, s.Warn, s.Info, waivedText(s)))
	}
	return nil
}

// waivedText adds the waived count to the summary line when there is one.
func waivedText(s check.Summary) string {
	if s.Waived == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d waived)", s.Waived)
}
