package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/field"
)

func waiverFindings() []Finding {
	var f Findings
	f.Add("K2", "topic connect-configs", "replication factor 1", nil)
	f.Add("K2", "topic connect-offsets", "replication factor 1", nil)
	f.Add("K2", "topic orders-offsets", "replication factor 1", nil)
	f.Add("T2", "w1.properties", "heartbeat", nil)
	f.Add("D2", "w1.properties", "delay below restart time", nil)
	return f.List()
}

const waiverFile = `
waivers:
  - rule: k2
    subject: "topic connect-*"
    reason: dev cluster, replication factor 1
    expires: 2026-12-31
  - rule: D2
    reason: planned roll on 2026-11-01
    expires: 2026-11-01
`

// A waiver file waives the findings of its rule whose subject matches,
// until it expires; an expired waiver is a W1 finding and waives nothing;
// the exit status (Fails) and the summary count only what is not waived,
// and the waived findings stay listed, marked.
func TestWaiverFile(t *testing.T) {
	ws, err := ParseWaivers("waivers.yaml", []byte(waiverFile))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	list := (&Filter{Waivers: ws, Now: now}).Apply(waiverFindings())
	waived := map[string]string{}
	for _, f := range list {
		if f.Waived != nil {
			waived[f.Rule+" "+f.Subject] = f.Waived.By + " " + f.Waived.Reason
		}
	}
	want := map[string]string{
		"K2 topic connect-configs": "waivers.yaml:3 dev cluster, replication factor 1",
		"K2 topic connect-offsets": "waivers.yaml:3 dev cluster, replication factor 1",
	}
	if len(waived) != len(want) {
		t.Errorf("waived %v, want %v", waived, want)
	}
	for k, v := range want {
		if waived[k] != v {
			t.Errorf("%s: waived by %q, want %q", k, waived[k], v)
		}
	}
	if !hasRule(list, "W1") {
		t.Errorf("expired D2 waiver is no W1 finding: %v", ruleIDs(list))
	}
	s := Summarize(list)
	if s.Waived != 2 || s.Error != 1 || s.Warn != 3 { // K2 orders-offsets; T2, D2, W1
		t.Errorf("summary %+v", s)
	}
	if !Fails(list, Error) {
		t.Error("the unwaived K2 does not fail the check")
	}
}

// --ignore waives rules outright; --only waives every other rule.
func TestIgnoreAndOnly(t *testing.T) {
	ignore, err := ParseRuleList("Ignore", []string{"k2,T2"})
	if err != nil {
		t.Fatal(err)
	}
	list := (&Filter{Ignore: ignore}).Apply(waiverFindings())
	if Fails(list, Error) || !Fails(list, Warn) {
		t.Errorf("--ignore K2,T2: want only D2 counted, got %+v", Summarize(list))
	}
	only, err := ParseRuleList("Only", []string{"T2", "D2"})
	if err != nil {
		t.Fatal(err)
	}
	list = (&Filter{Only: only}).Apply(waiverFindings())
	if s := Summarize(list); s.Error != 0 || s.Warn != 2 || s.Waived != 3 {
		t.Errorf("--only T2 D2: summary %+v", s)
	}
	for _, f := range list {
		if f.Rule == "K2" && (f.Waived == nil || f.Waived.By != "--only") {
			t.Errorf("K2 not waived by --only: %+v", f.Waived)
		}
	}
	_, err = ParseRuleList("Ignore", []string{"K2,X9"})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Name != "Ignore" || !strings.Contains(err.Error(), `"X9"`) {
		t.Errorf("unknown rule: %v", err)
	}
}

// Waived findings are listed as waived in every format: the table of
// waived findings, and the waived object in JSON, JSONL and YAML.
func TestWaivedInEveryFormat(t *testing.T) {
	rep := &TopicsReport{Verdict: Verdict{Findings: waiverFindings()}, Topics: []TopicView{}}
	rep.Summary = Summarize(rep.Findings)
	Waive(rep, &Filter{Ignore: []string{"K2"}})
	for _, o := range []string{"table", "json", "jsonl", "yaml"} {
		var buf bytes.Buffer
		if err := format.Write(&buf, rep, format.Options{Output: o}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, "--ignore") || strings.Count(out, "connect-configs") != 1 {
			t.Errorf("-o %s does not list the waived K2 once, marked:\n%s", o, out)
		}
	}
	var back struct {
		Findings []Finding `json:"findings"`
		Summary  Summary   `json:"summary"`
	}
	b, _ := json.Marshal(rep)
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary.Waived != 3 || back.Summary.Error != 0 {
		t.Errorf("JSON summary %+v", back.Summary)
	}
}

func TestBadWaiverFiles(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"- rule: Z9\n  reason: x\n", `waivers.yaml:1: unknown rule "Z9"`},
		{"- rule: K2\n", "waivers.yaml:1: waiver of K2 has no reason"},
		{"- rule: K2\n  reason: x\n  expires: soon\n", `waivers.yaml:1: expires "soon" is not a date YYYY-MM-DD`},
		{"- rule: K2\n  reason: x\n  subjects: y\n", `waivers.yaml:1: unknown key "subjects"`},
		{"waiver:\n  - rule: K2\n", `waivers.yaml:1: unknown key "waiver"`},
		{"rule: K2\n", `unknown key "rule"`},
		{"[1, 2]", "a waiver is a map"},
		{"- rule: [K2]\n  reason: x\n", "rule must be text"},
		// Waivers the author wrote that a list would silently lack.
		{"waivers:\n  - {rule: K2, reason: a}\nwaivers:\n  - {rule: K5, reason: b}\n", "waivers.yaml:3: waivers given twice"},
		{"- {rule: K2, reason: a}\n---\n- {rule: K5, reason: b}\n", "waivers.yaml:3: a second YAML document"},
	} {
		_, err := ParseWaivers("waivers.yaml", []byte(c.text))
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Name != "Waivers" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one naming Waivers with %q", c.text, err, c.want)
		}
	}
	for _, empty := range []string{"", "\n", "# none yet\n", "waivers:\n", "[]", "[]\n---\n"} {
		if ws, err := ParseWaivers("w", []byte(empty)); err != nil || len(ws) != 0 {
			t.Errorf("%q: %v, %v", empty, ws, err)
		}
	}
}

func FuzzParseWaivers(f *testing.F) {
	for _, s := range []string{waiverFile, "", "- rule: K2\n  reason: x\n  subject: '*'\n", "{\"waivers\": [{\"rule\": \"D7\", \"reason\": \"r\"}]}",
		"- &a {rule: K2, reason: *a}", "- rule: K2\n  reason: x\n  expires: 9999-12-31\n", "waivers: !!binary AAAA", "- rule: K2\n  reason: x\n  subject: '[(\\\\'\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ws, err := ParseWaivers("w", []byte(text))
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line naming the file", err)
			}
			return
		}
		list := (&Filter{Waivers: ws, Now: time.Now()}).Apply(waiverFindings())
		if len(list) < len(waiverFindings()) {
			t.Fatalf("findings lost: %d", len(list))
		}
	})
}

// A live waiver of a rule whose check ran that matches no finding is W2
// (info): the waiver list is out of date. Waivers of checks that did not
// run, and expired ones (W1), are not W2; check all reports W2 once.
func TestStaleWaiver(t *testing.T) {
	ws, err := ParseWaivers("w.yaml", []byte(`waivers:
  - rule: K2
    subject: "topic connect-*"
    reason: dev cluster
  - rule: K5
    subject: "topic nosuch"
    reason: fixed long ago
  - rule: T2
    reason: timeouts did not run
  - rule: K13
    reason: expired
    expires: 2020-01-01
`))
	if err != nil {
		t.Fatal(err)
	}
	fl := &Filter{Waivers: ws, Now: time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)}
	var f Findings
	f.Add("K2", "topic connect-configs", "one partition", nil)
	rep := &TopicsReport{Verdict: Verdict{Findings: f.List()}}
	Waive(rep, fl)
	var stale []string
	for _, fd := range rep.Findings {
		if fd.Rule == "W2" {
			stale = append(stale, fd.Subject+" "+fd.Values["rule"].(string))
			if fd.Severity != Info || fd.Waived != nil {
				t.Errorf("W2 %+v: want an info finding that counts", fd)
			}
		}
	}
	if len(stale) != 1 || stale[0] != "waiver w.yaml:5 K5" {
		t.Errorf("W2 findings %v, want the K5 waiver only", stale)
	}
	if rep.Summary.Info != 1 {
		t.Errorf("summary %+v: the W2 finding is not counted", rep.Summary)
	}

	all := &AllReport{Checks: []CheckRun{{Check: "topics", Ran: true}, {Check: "timeouts"}},
		Verdict: Verdict{Findings: f.List()}, Topics: &TopicsReport{Verdict: Verdict{Findings: f.List()}}}
	Waive(all, fl)
	if n := len(ruleIDsOf(all.Findings, "W2")); n != 1 {
		t.Errorf("check all: %d W2 findings, want 1: %v", n, ruleIDs(all.Findings))
	}
	if n := len(ruleIDsOf(all.Topics.Findings, "W2")); n != 0 {
		t.Errorf("check all's topics section repeats W2 (%d)", n)
	}

	// Apply alone (no check known to have run) judges no waiver.
	if n := len(ruleIDsOf(fl.Apply(f.List()), "W2")); n != 0 {
		t.Errorf("Apply without the checks that ran gave %d W2", n)
	}
}

func ruleIDsOf(list []Finding, rule string) []Finding {
	var out []Finding
	for _, f := range list {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}
