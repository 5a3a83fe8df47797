package check

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// foldFiles turns findings that differ only in the worker file they name
// into one finding for all those files: with 30 workers on one setting, a
// rule fires once, not 30 times. The folded finding's subject says how many
// files ("all 30 worker files"), and its values list them (worker_files).
func foldFiles(list []Finding, files []string) []Finding {
	type group struct {
		at    int // index in out
		names []string
	}
	groups := map[string]*group{}
	out := make([]Finding, 0, len(list))
	templates := make([]string, 0, len(list))
	for _, f := range list {
		tmpl, name := subjectTemplate(f.Subject, files)
		if name == "" {
			out = append(out, f)
			templates = append(templates, "")
			continue
		}
		key := foldKey(f, tmpl)
		if g, ok := groups[key]; ok {
			g.names = append(g.names, name)
			continue
		}
		groups[key] = &group{at: len(out), names: []string{name}}
		out = append(out, f)
		templates = append(templates, tmpl)
	}
	distinct := map[string]bool{}
	for _, n := range files {
		distinct[n] = true
	}
	for _, g := range groups {
		if len(g.names) < 2 {
			continue
		}
		sort.Strings(g.names)
		f := &out[g.at]
		which := fmt.Sprintf("%d worker files", len(g.names))
		if len(g.names) == len(distinct) {
			which = "all " + which
		}
		f.Subject = strings.Replace(templates[g.at], "\x00", which, 1)
		values := make(map[string]any, len(f.Values)+1)
		for k, v := range f.Values {
			values[k] = v
		}
		values["worker_files"] = g.names
		f.Values = values
	}
	return out
}

// subjectTemplate finds the worker file a subject names ("w1.properties",
// "w1.properties (sink consumers)", "connector c on w1.properties") and
// returns the subject with the name replaced by a marker.
func subjectTemplate(subject string, files []string) (tmpl, name string) {
	best := ""
	for _, n := range files {
		if len(n) <= len(best) {
			continue
		}
		if subject == n || strings.HasPrefix(subject, n+" ") || strings.HasSuffix(subject, " on "+n) {
			best = n
		}
	}
	if best == "" {
		return subject, ""
	}
	if strings.HasSuffix(subject, " on "+best) && subject != best {
		return strings.TrimSuffix(subject, best) + "\x00", best
	}
	return "\x00" + strings.TrimPrefix(subject, best), best
}

// foldKey is everything of a finding but the file its subject names.
func foldKey(f Finding, tmpl string) string {
	values, _ := json.Marshal(f.Values) // map keys sorted: a stable key
	applies := ""
	if f.AppliesTo != nil {
		applies = *f.AppliesTo
	}
	return strings.Join([]string{f.Rule, string(f.Severity), tmpl, f.Message, string(values), strings.Join(f.Defaults, ","), applies}, "\x01")
}
