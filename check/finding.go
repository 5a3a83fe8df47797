package check

import (
	"fmt"
	"sort"
)

// Finding is one rule that fired, on one subject (a worker file, a topic, a
// worker, a connector), with the values that made it fire.
type Finding struct {
	Rule     string         `json:"rule"`
	Severity Severity       `json:"severity"`
	Check    string         `json:"check"`
	Title    string         `json:"title"`
	Subject  string         `json:"subject"`
	Message  string         `json:"message"` // this finding's specifics, one line
	Values   map[string]any `json:"values"`
	// Defaults lists the keys in Values that are Java defaults (the file was silent).
	Defaults []string `json:"defaults"`
	// AppliesTo is set when the rule depends on the Kafka version and the
	// version is unknown: the versions the finding concerns. Null otherwise.
	AppliesTo *string `json:"applies_to"`
	Why       string  `json:"why"`
	Fix       string  `json:"fix"`
	// Waived is set when --ignore, --only or a waiver file waives the
	// finding: it is listed but does not count (summary, exit status).
	Waived *Waived `json:"waived"`
	// namedByData marks Values keyed by data (file names, group ids), not
	// by settings: a key says nothing of whether its value is secret.
	namedByData bool
}

// Summary counts findings by severity; waived findings count only in Waived.
type Summary struct {
	Error  int `json:"error"`
	Warn   int `json:"warn"`
	Info   int `json:"info"`
	Waived int `json:"waived"`
}

// Verdict is a check's findings and their summary, at the head of every
// check's report.
type Verdict struct {
	Findings []Finding `json:"findings"`
	Summary  Summary   `json:"summary"`
}

// verdictOf is the verdict of a check that found list.
func verdictOf(list []Finding) Verdict { return Verdict{Findings: list, Summary: Summarize(list)} }

// verdictIn points at the verdict a report embeds; nil for a nil report (a
// section check all did not run).
func verdictIn[R any, P interface {
	*R
	own() *Verdict
}](r P) *Verdict {
	if r == nil {
		return nil
	}
	return r.own()
}

// own is the verdict itself, reached through the reports that embed it.
func (v *Verdict) own() *Verdict { return v }

// Findings collects findings while a check runs.
type Findings struct{ list []Finding }

// Add records a finding of rule id. values may be nil.
func (f *Findings) Add(id, subject, message string, values map[string]any) *Finding {
	r, ok := RuleByID(id)
	if !ok {
		// A programming error, surfaced as a finding rather than a panic.
		r = Rule{ID: id, Severity: Error, Title: "unknown rule " + id}
	}
	if values == nil {
		values = map[string]any{}
	}
	f.list = append(f.list, Finding{
		Rule: r.ID, Severity: r.Severity, Check: r.Check, Title: r.Title, Subject: subject,
		Message: message, Values: values, Defaults: []string{}, Why: r.Why, Fix: r.Fix,
	})
	return &f.list[len(f.list)-1]
}

// Addf is Add with a formatted message.
func (f *Findings) Addf(id, subject string, values map[string]any, format string, args ...any) *Finding {
	return f.Add(id, subject, fmt.Sprintf(format, args...), values)
}

// Merge appends other findings.
func (f *Findings) Merge(list []Finding) { f.list = append(f.list, list...) }

// List returns the findings sorted: severity, rule, subject, message.
func (f *Findings) List() []Finding {
	out := append([]Finding{}, f.list...)
	SortFindings(out)
	return out
}

// SortFindings orders findings stably: by severity (error first), rule id
// (series, then number), subject, message.
func SortFindings(list []Finding) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.Severity.rank() != b.Severity.rank() {
			return a.Severity.rank() < b.Severity.rank()
		}
		if a.Rule != b.Rule {
			return ruleLess(a.Rule, b.Rule)
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Message < b.Message
	})
	for i := range list {
		sort.Strings(list[i].Defaults)
	}
}

// Summarize counts findings by severity.
func Summarize(list []Finding) Summary {
	var s Summary
	for _, f := range list {
		if f.Waived != nil {
			s.Waived++
			continue
		}
		switch f.Severity {
		case Error:
			s.Error++
		case Warn:
			s.Warn++
		case Info:
			s.Info++
		}
	}
	return s
}

// Fails reports whether any finding that is not waived reaches the
// --fail-on threshold.
func Fails(list []Finding, threshold Severity) bool {
	for _, f := range list {
		if f.Waived == nil && f.Severity.Reaches(threshold) {
			return true
		}
	}
	return false
}
