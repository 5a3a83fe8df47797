package check

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/source/yamlfile"
	"gopkg.in/yaml.v3"
)

// Waived says why a finding does not count towards the exit status: an
// --ignore, rules outside --only, or an entry of the waiver file. A waived
// finding is still listed, marked so.
type Waived struct {
	By      string  `json:"by"`      // "--ignore", "--only" or FILE:LINE of the waiver
	Reason  string  `json:"reason"`  // the waiver's reason ("" for the flags)
	Expires *string `json:"expires"` // the waiver's expiry date (YYYY-MM-DD), null when none
}

// Waiver is one entry of a waiver file: findings of Rule whose subject
// matches Subject are waived, for Reason, until Expires.
type Waiver struct {
	Rule    string `yaml:"rule" json:"rule"`
	Subject string `yaml:"subject" json:"subject"` // a pattern: * any text, ? one character; "" = every subject
	Reason  string `yaml:"reason" json:"reason"`
	Expires string `yaml:"expires" json:"expires"` // YYYY-MM-DD, the last day it holds; "" = never
	at      string // FILE:LINE, for messages
	match   *regexp.Regexp
	expires time.Time // the first instant it no longer holds
}

// MaxWaiverFile bounds what ParseWaivers reads: a waiver file is a short list.
const MaxWaiverFile = 1 << 20

// ParseWaivers reads a waiver file (YAML or JSON): a list of waivers, or an
// object whose "waivers" key holds the list. name is the file's name, used
// in errors (as the field "Waivers") and in each waiver's place.
func ParseWaivers(name string, data []byte) ([]Waiver, error) {
	if len(data) > MaxWaiverFile {
		return nil, field.Errorf("Waivers", " %s: larger than %d bytes", name, MaxWaiverFile)
	}
	doc, err := yamlfile.Decode(data)
	var second *yamlfile.SecondDocumentError
	switch {
	case errors.As(err, &second):
		return nil, field.Errorf("Waivers", " %s:%d: a second YAML document: put every waiver in one list", name, second.Line)
	case err != nil:
		return nil, field.Errorf("Waivers", " %s: %s", name, oneLine(err))
	case doc.Kind == 0: // empty, or comments only
		return []Waiver{}, nil
	}
	list := &doc
	if list.Kind == yaml.DocumentNode && len(list.Content) == 1 {
		list = list.Content[0]
	}
	if list.Kind == yaml.MappingNode {
		var inner *yaml.Node
		for i := 0; i+1 < len(list.Content); i += 2 {
			switch k := list.Content[i]; {
			case k.Value != "waivers":
				return nil, field.Errorf("Waivers", " %s:%d: unknown key %q (want waivers: a list of rule, subject, reason, expires)", name, k.Line, k.Value)
			case inner != nil:
				return nil, field.Errorf("Waivers", " %s:%d: waivers given twice: put every waiver in one list", name, k.Line)
			}
			inner = list.Content[i+1]
		}
		if inner == nil {
			return []Waiver{}, nil
		}
		list = inner
	}
	if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
		return []Waiver{}, nil
	}
	if list.Kind != yaml.SequenceNode {
		return nil, field.Errorf("Waivers", " %s:%d: want a list of waivers (rule, subject, reason, expires)", name, list.Line)
	}
	out := make([]Waiver, 0, len(list.Content))
	for _, n := range list.Content {
		w, err := parseWaiver(name, n)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

func parseWaiver(name string, n *yaml.Node) (Waiver, error) {
	at := fmt.Sprintf("%s:%d", name, n.Line)
	if n.Kind != yaml.MappingNode {
		return Waiver{}, field.Errorf("Waivers", " %s: a waiver is a map of rule, subject, reason and expires", at)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i].Value; k {
		case "rule", "subject", "reason", "expires":
			if v := n.Content[i+1]; v.Kind != yaml.ScalarNode {
				return Waiver{}, field.Errorf("Waivers", " %s: %s must be text", at, k)
			}
		default:
			return Waiver{}, field.Errorf("Waivers", " %s: unknown key %q (a waiver has rule, subject, reason, expires)", at, k)
		}
	}
	var w Waiver
	if err := n.Decode(&w); err != nil {
		return Waiver{}, field.Errorf("Waivers", " %s: %s", at, oneLine(err))
	}
	w.at = at
	r, ok := RuleByID(w.Rule)
	if !ok {
		return Waiver{}, field.Errorf("Waivers", " %s: unknown rule %q (connectscope check rules lists them)", at, w.Rule)
	}
	w.Rule = r.ID
	if strings.TrimSpace(w.Reason) == "" {
		return Waiver{}, field.Errorf("Waivers", " %s: waiver of %s has no reason: say why it is safe to ignore", at, w.Rule)
	}
	w.match = subjectPattern(w.Subject)
	if w.Expires != "" {
		day, err := time.Parse(time.DateOnly, strings.TrimSpace(w.Expires))
		if err != nil {
			return Waiver{}, field.Errorf("Waivers", " %s: expires %q is not a date YYYY-MM-DD", at, w.Expires)
		}
		w.Expires = day.Format(time.DateOnly)
		w.expires = day.AddDate(0, 0, 1) // it holds through its last day (UTC)
	}
	return w, nil
}

// oneLine is a YAML error on one line (it lists several problems on several).
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

// subjectPattern compiles a subject pattern: * matches any text, ? one
// character, everything else itself; the whole subject must match.
func subjectPattern(p string) *regexp.Regexp {
	if p == "" {
		p = "*"
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// Filter is what decides which findings count: --ignore, --only and the
// waiver file's entries, at time Now (expired waivers waive nothing and are
// findings themselves, rule W1).
type Filter struct {
	Ignore  []string // rule ids
	Only    []string // rule ids; empty = every rule
	Waivers []Waiver
	Now     time.Time
	// ran are the checks whose findings the list holds, for W2: a live
	// waiver of a rule of one of them that matches no finding is stale.
	// nil (Apply called directly, or a section of check all) judges none.
	ran map[string]bool
}

// ParseRuleList reads an --ignore or --only value: rule ids separated by
// commas or blanks, each one of the catalogue. name is the input named in
// errors ("Ignore", "Only").
func ParseRuleList(name string, values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, id := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			r, ok := RuleByID(id)
			if !ok {
				return nil, field.Errorf(name, ": unknown rule %q (connectscope check rules lists them)", id)
			}
			out = append(out, r.ID)
		}
	}
	return out, nil
}

// Empty reports whether the filter waives nothing.
func (fl *Filter) Empty() bool {
	return fl == nil || len(fl.Ignore) == 0 && len(fl.Only) == 0 && len(fl.Waivers) == 0
}

// Apply marks the findings the filter waives, adds a W1 finding per expired
// waiver, and returns the list sorted. Waived findings stay in the list.
func (fl *Filter) Apply(list []Finding) []Finding {
	if fl.Empty() {
		return list
	}
	ignore, only := map[string]bool{}, map[string]bool{}
	for _, id := range fl.Ignore {
		ignore[id] = true
	}
	for _, id := range fl.Only {
		only[id] = true
	}
	var f Findings
	for _, w := range fl.Waivers {
		if w.expired(fl.Now) {
			f.Add("W1", "waiver "+w.at, fmt.Sprintf("the waiver of %s for %q expired on %s (%s): its findings count again", w.Rule, orAny(w.Subject), w.Expires, w.Reason),
				map[string]any{"rule": w.Rule, "subject": w.Subject, "reason": w.Reason, "expires": w.Expires, "at": w.at})
		}
	}
	fl.addStale(&f, list)
	out := append(append([]Finding{}, list...), f.list...)
	for i := range out {
		fd := &out[i]
		if fd.Waived != nil {
			continue
		}
		switch {
		case ignore[fd.Rule]:
			fd.Waived = &Waived{By: "--ignore"}
		case len(only) > 0 && !only[fd.Rule]:
			fd.Waived = &Waived{By: "--only"}
		default:
			for _, w := range fl.Waivers {
				if w.Rule == fd.Rule && !w.expired(fl.Now) && w.match.MatchString(fd.Subject) {
					wv := &Waived{By: w.at, Reason: w.Reason}
					if w.Expires != "" {
						e := w.Expires
						wv.Expires = &e
					}
					fd.Waived = wv
					break
				}
			}
		}
	}
	SortFindings(out)
	return out
}

// addStale adds a W2 finding for each live waiver of a rule whose check
// ran that matches none of the findings (waived or not), so a runbook's
// waiver list does not quietly outlive what it decided.
func (fl *Filter) addStale(f *Findings, list []Finding) {
	if fl.ran == nil {
		return
	}
	for _, w := range fl.Waivers {
		r, _ := RuleByID(w.Rule)
		if w.expired(fl.Now) || !fl.ran[r.Check] {
			continue
		}
		matched := false
		for _, fd := range list {
			if fd.Rule == w.Rule && w.match.MatchString(fd.Subject) {
				matched = true
				break
			}
		}
		if !matched {
			f.Add("W2", "waiver "+w.at, fmt.Sprintf("the waiver of %s for %q (%s) matched no finding of %s in this run: drop it or correct its subject", w.Rule, orAny(w.Subject), w.Reason, w.Rule),
				map[string]any{"rule": w.Rule, "subject": w.Subject, "reason": w.Reason, "expires": w.Expires, "at": w.at})
		}
	}
}

func (w Waiver) expired(now time.Time) bool { return !w.expires.IsZero() && !now.Before(w.expires) }

func orAny(subject string) string {
	if subject == "" {
		return "*"
	}
	return subject
}

// Waive applies fl to a check's report (timeouts, upgrade, topics, balance
// or all, and the reports inside all) and counts its summary again.
func Waive(report any, fl *Filter) { waive(report, fl, true) }

// waive is Waive; judge says whether waivers are judged stale (W2) here: not
// in the sections of check all, whose report judges them once.
func waive(report any, fl *Filter, judge bool) {
	if fl.Empty() {
		return
	}
	if v := reportVerdict(report); v != nil {
		judged := *fl
		if judge {
			judged.ran = checksRan(report)
		}
		*v = verdictOf(judged.Apply(v.Findings))
	}
	if r, ok := report.(*AllReport); ok {
		// The sections keep their own findings; expired and stale waivers
		// are the whole report's (W1 and W2 once, in its findings).
		inner := *fl
		inner.Waivers = live(fl.Waivers, fl.Now)
		for _, sub := range r.sections() {
			waive(sub, &inner, false)
		}
	}
}

// checksRan are the checks a report's findings come from: its own check,
// or those check all ran.
func checksRan(report any) map[string]bool {
	ran := map[string]bool{}
	switch r := report.(type) {
	case *TimeoutsReport:
		ran["timeouts"] = true
	case *UpgradeReport:
		ran["upgrade"] = true
	case *TopicsReport:
		ran["topics"] = true
	case *BalanceReport:
		ran["balance"] = true
	case *AllReport:
		for _, c := range r.Checks {
			ran[c.Check] = c.Ran
		}
	}
	return ran
}

// FindingsOf is a check report's findings (nil for anything else).
func FindingsOf(report any) []Finding {
	if v := reportVerdict(report); v != nil {
		return v.Findings
	}
	return nil
}

// reportVerdict points at a check report's verdict; nil for anything else,
// a nil report included.
func reportVerdict(report any) *Verdict {
	switch r := report.(type) {
	case *TimeoutsReport:
		return verdictIn(r)
	case *UpgradeReport:
		return verdictIn(r)
	case *TopicsReport:
		return verdictIn(r)
	case *BalanceReport:
		return verdictIn(r)
	case *AllReport:
		return verdictIn(r)
	}
	return nil
}

// live are the waivers not expired at now.
func live(ws []Waiver, now time.Time) []Waiver {
	out := []Waiver{}
	for _, w := range ws {
		if !w.expired(now) {
			out = append(out, w)
		}
	}
	return out
}
