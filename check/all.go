package check

import (
	"context"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Options are the settings shared by the checks (command-line flags).
type Options struct {
	KafkaVersion   kafkaversion.Version
	WorkerVersions map[string]kafkaversion.Version
	// WorkerFindings are U13 findings of the workers asked for their
	// versions that did not answer (WorkerVersions); the checks that use
	// the versions report them.
	WorkerFindings []Finding
	RestartTimeMs  int64
	MaxDowntimeMs  int64
	MaxPutTimeMs   int64
	Target         Protocol // upgrade target; "" = sessioned in check all
	ExactlyOnce    string
	Capacity       int
	Zones          map[string]string
	Group          string // the Connect group.id (for K7)
	// Context stops long work (D7's advisor); nil = never.
	Context context.Context
}

// AllInput is everything `check all` may use; any part may be missing.
type AllInput struct {
	Workers []*workerconfig.Config
	Data    *Decoded // nil when no dataset was read
	// ClusterUnread: the worker files pointed at a cluster that could not be
	// read, the reason the checks that need one did not run.
	ClusterUnread bool
	// ClusterErr is why that cluster could not be read; the report's notes
	// say it (it implies ClusterUnread).
	ClusterErr error
	Options    Options
}

// CheckRun says whether a check ran and, if not, why.
type CheckRun struct {
	Check  string       `json:"check"`
	Ran    bool         `json:"ran"`
	Reason *string      `json:"reason"`
	reason setting.Text // Reason naming settings, for NameSettings
}

// NameSettings rewrites the reasons checks did not run with the settings
// they name in n's words (the commands give their flag names).
func (r *AllReport) NameSettings(n setting.Namer) {
	for i, t := range r.notes {
		r.Notes[i] = t.With(n)
	}
	for i := range r.Checks {
		if c := &r.Checks[i]; c.Reason != nil && !c.reason.IsZero() {
			s := c.reason.With(n)
			c.Reason = &s
		}
	}
}

// AllReport is the result of `check all`: one list of findings, one summary.
type AllReport struct {
	Verdict
	Checks   []CheckRun      `json:"checks"`
	Timeouts *TimeoutsReport `json:"timeouts"`
	Upgrade  *UpgradeReport  `json:"upgrade"`
	Topics   *TopicsReport   `json:"topics"`
	Balance  *BalanceReport  `json:"balance"`
	Notes    []string        `json:"notes"`
	// notes are the Notes that name settings, by index, for NameSettings.
	notes map[int]setting.Text
}

// sections are the reports of the checks check all ran (nil for the ones
// it did not), each printed with its own findings.
func (r *AllReport) sections() []any { return []any{r.Timeouts, r.Upgrade, r.Topics, r.Balance} }

// TimeoutsFor builds the timeouts input from files, dataset and options.
func TimeoutsFor(workers []*workerconfig.Config, d *Decoded, o Options) TimeoutsInput {
	in := TimeoutsInput{Workers: workers, KafkaVersion: o.KafkaVersion, WorkerVersions: o.WorkerVersions,
		RESTFindings: o.WorkerFindings, RestartTimeMs: o.RestartTimeMs, MaxDowntimeMs: o.MaxDowntimeMs, MaxPutTimeMs: o.MaxPutTimeMs}
	if d != nil {
		in.Connectors = d.Connectors()
		in.TasksPerWorker = d.MaxTasksPerWorker()
		if d.Loaded() {
			in.Broker = d.BrokerConfigs
			if d.Group != nil && o.RestartTimeMs > 0 {
				if st, err := cluster.StateFromDataset(d.Dataset); err == nil && len(st.Workers) > 0 {
					in.Cluster = &st
				}
			}
		}
		in.Context = o.Context
	}
	return in
}

// UpgradeFor builds the upgrade input.
func UpgradeFor(workers []*workerconfig.Config, d *Decoded, o Options) UpgradeInput {
	in := UpgradeInput{Workers: workers, Target: o.Target, ExactlyOnce: o.ExactlyOnce, KafkaVersion: o.KafkaVersion, WorkerVersions: o.WorkerVersions,
		RESTFindings: o.WorkerFindings}
	if in.Target == "" {
		in.Target = "sessioned"
	}
	d.UpgradeGroup(&in)
	return in
}

// All runs every check whose inputs exist.
func All(in AllInput) (*AllReport, error) {
	rep := &AllReport{Checks: []CheckRun{}, Notes: []string{}}
	var err error
	if len(in.Workers) > 0 {
		if rep.Timeouts, err = Timeouts(TimeoutsFor(in.Workers, in.Data, in.Options)); err != nil {
			return nil, err
		}
	}
	if len(in.Workers) > 0 || in.Data.HasGroup() {
		if rep.Upgrade, err = Upgrade(UpgradeFor(in.Workers, in.Data, in.Options)); err != nil {
			return nil, err
		}
	}
	if in.Data != nil && in.Data.Loaded() {
		ti := in.Data.TopicsInput(in.Options.Group)
		ti.Workers = in.Workers
		rep.Topics = Topics(ti)
		if len(ti.Descriptions) == 0 {
			rep.Notes = append(rep.Notes, "topics: no topic descriptions in the input (read live or from a live snapshot for K1, K2, K5, K12–K15)")
		}
	}
	if in.Data.HasGroup() {
		bi := in.Data.BalanceInput()
		bi.Capacity, bi.Zones = in.Options.Capacity, in.Options.Zones
		rep.Balance = Balance(bi)
	}
	// Each check in order: ran (its findings merged), or why not.
	var f Findings
	section := func(name string, v *Verdict, why setting.Text) {
		if v == nil {
			s := why.String()
			rep.Checks = append(rep.Checks, CheckRun{Check: name, Reason: &s, reason: why})
			return
		}
		f.Merge(v.Findings)
		rep.Checks = append(rep.Checks, CheckRun{Check: name, Ran: true})
	}
	section("timeouts", verdictIn(rep.Timeouts), setting.Textf("no worker files given (%v)", setting.WorkerConfig))
	section("upgrade", verdictIn(rep.Upgrade), setting.Textf("neither worker files nor the group"))
	section("topics", verdictIn(rep.Topics), noCluster(in, setting.Textf("no dataset (%v or a live cluster)", setting.InputFile)))
	section("balance", verdictIn(rep.Balance), noCluster(in, setting.Textf("no Connect group in the input")))
	rep.Verdict = verdictOf(dedupe(f.List()))
	if in.ClusterErr != nil {
		t := setting.Textf("the cluster of the worker files' bootstrap.servers could not be read, so topics and balance did not run: %v", wordedErr{in.ClusterErr})
		rep.notes = map[int]setting.Text{len(rep.Notes): t}
		rep.Notes = append(rep.Notes, t.String())
	}
	return rep, nil
}

// noCluster is why a check that needs the cluster did not run: the cluster
// could not be read, else why (the input holds none of it).
func noCluster(in AllInput, why setting.Text) setting.Text {
	if in.ClusterUnread || in.ClusterErr != nil {
		return setting.Textf("the cluster of the worker files' bootstrap.servers could not be read")
	}
	return why
}

// wordedErr is an error whose text names settings as its Namer says
// (setting.Words), so that a note quoting it names them as the caller does,
// redacted as the error line is: it can quote bootstrap.servers, which a
// worker file's line continuation can join to the password on the next line.
type wordedErr struct{ err error }

func (w wordedErr) Error() string                    { return redact.Text(w.err.Error()) }
func (w wordedErr) ErrorWith(n setting.Namer) string { return redact.Text(setting.Words(w.err, n)) }
func (w wordedErr) Unwrap() error                    { return w.err }

// dedupe drops findings two checks both produced (same rule, subject, message).
func dedupe(list []Finding) []Finding {
	seen := map[[3]string]bool{}
	out := list[:0:0]
	for _, f := range list {
		k := [3]string{f.Rule, f.Subject, f.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	if out == nil {
		out = []Finding{}
	}
	return out
}
