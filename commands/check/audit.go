package check

import (
	"fmt"
	"io"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
)

// audit is a check's run: its inputs read (read: the shared flags, then the
// verb's own, more, then the dataset, which required says the check cannot
// do without), the check made (run), its report finished (finish).
func audit(e *cli.Env, o *CheckOptions, required bool, run func(check.Options, *check.Decoded) (any, error), more ...func(*check.Options) error) error {
	opts, failOn, d, err := o.read(e, required, more...)
	if err != nil {
		return err
	}
	rep, err := run(opts, d)
	if err != nil {
		return err
	}
	return finish(e, *o, rep, failOn)
}

// usageRefused is a check's report, or its refusal of its inputs as a usage
// error (exit 2).
func usageRefused[R any](rep R, err error) (any, error) {
	if err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	return rep, nil
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
	if !e.Globals.ShowSecrets {
		check.RedactReport(report) // in place, sections of check all included
	}
	findings := check.FindingsOf(report)
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
