package check

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	urfave "github.com/urfave/cli/v2"
)

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

// TimingOptions are the time flags of timeouts and all.
type TimingOptions struct {
	RestartTime, MaxDowntime, MaxPutTime string
}

func (o *TimingOptions) flags() []urfave.Flag {
	return []urfave.Flag{
		&urfave.StringFlag{Name: flagRestartTime, Destination: &o.RestartTime, Usage: "typical worker restart `DURATION` (90s, 2m, or milliseconds) for rule D2"},
		&urfave.StringFlag{Name: flagMaxDowntime, Destination: &o.MaxDowntime, Usage: "longest acceptable outage of a crashed worker's pieces, `DURATION`, for rule D6"},
		&urfave.StringFlag{Name: flagMaxPutTime, Destination: &o.MaxPutTime, Usage: "worst-case sink put() + flush `DURATION`, for rule S3"},
	}
}

// options reads the time flags into o.
func (t TimingOptions) options(o *check.Options) error {
	var err error
	for _, d := range []struct {
		flag, value string
		into        *int64
	}{{flagRestartTime, t.RestartTime, &o.RestartTimeMs}, {flagMaxDowntime, t.MaxDowntime, &o.MaxDowntimeMs}, {flagMaxPutTime, t.MaxPutTime, &o.MaxPutTimeMs}} {
		if *d.into, err = parseMillis(d.flag, d.value); err != nil {
			return err
		}
	}
	return nil
}

// BalanceOptions are the flags of balance and all.
type BalanceOptions struct {
	Capacity int
	Zones    string
}

func (o *BalanceOptions) flags() []urfave.Flag {
	return []urfave.Flag{
		&urfave.IntFlag{Name: flagCapacity, Destination: &o.Capacity, Usage: "tasks one worker can run (`N`): checks that losing a worker or a zone leaves room"},
		&urfave.StringFlag{Name: flagZones, Destination: &o.Zones, Usage: "`FILE` of WORKER=ZONE lines (worker ids host:port as in status records)"},
	}
}

// options reads the balance flags into o.
func (b BalanceOptions) options(o *check.Options) error {
	o.Capacity = b.Capacity
	if o.Capacity < 0 {
		return cli.UsageErrorf("--capacity must not be negative, not %d", o.Capacity)
	}
	if b.Zones != "" {
		data, err := boundedfile.Read(b.Zones, check.MaxWaiverFile)
		if err != nil {
			return cli.InputError(fmt.Errorf("reading zones: %w", err))
		}
		if o.Zones, err = check.ParseZones(b.Zones, data); err != nil {
			return cli.Exit(cli.ExitUsage, err)
		}
	}
	return nil
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
			return 0, cli.UsageErrorf("--%s %q: must not be negative", flag, s)
		}
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, cli.UsageErrorf("--%s %q: give a duration such as 90s, 5m or 1h30m, or a number of milliseconds", flag, s)
	}
	return d.Milliseconds(), nil
}
