package check

import (
	"github.com/connectscope/connectscope/inspect/redact"
)

// RedactReport hides secrets in all a check report prints: the findings
// of its verdict and, for check all, of each section (copies of the
// merged ones), then every other string it holds, as text.
func RedactReport(report any) {
	if v := reportVerdict(report); v != nil {
		RedactFindings(v.Findings)
	}
	if r, ok := report.(*AllReport); ok {
		for _, sub := range r.sections() {
			if v := reportVerdict(sub); v != nil {
				RedactFindings(v.Findings)
			}
		}
	}
	redact.Strings(report)
}

// RedactFindings hides secrets the rules saw (they read values with
// ShowSecrets) in what a finding shows: a secret key's value, a password in
// a connection URL, a token in a message, and the same inside the lists
// and maps of its values.
func RedactFindings(findings []Finding) {
	// A rule's fix stands in each of its findings, and one that mentions
	// credentials runs every redaction pattern: 20,000 workers' U13 spent
	// 2.6 s redacting the same fix. Each distinct fix is redacted once.
	fixes := map[string]string{}
	for i := range findings {
		f := &findings[i]
		f.Subject = redact.Text(f.Subject)
		f.Message = redact.Text(f.Message)
		fix, ok := fixes[f.Fix]
		if !ok {
			fix = redact.Text(f.Fix) // a fix may quote the setting to change
			fixes[f.Fix] = fix
		}
		f.Fix = fix
		redactValues(f)
	}
}

// redactValues redacts a finding's values: under a setting's name by what
// that setting is (a secret key's value is hidden whole), under a data key
// (a file, a group.id) as text, key and value alike.
func redactValues(f *Finding) {
	if f.namedByData {
		redacted := make(map[string]any, len(f.Values))
		for k, v := range f.Values {
			redacted[redact.Text(k)] = redact.Nested("", v)
		}
		f.Values = redacted
		return
	}
	for k, v := range f.Values {
		if _, ok := v.(string); !ok && v != nil && redact.IsSecretKey(k) {
			f.Values[k] = redact.Placeholder
			continue
		}
		f.Values[k] = redact.Nested(k, v)
	}
}
