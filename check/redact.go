package check

import (
	"github.com/connectscope/connectscope/inspect/redact"
)

// RedactFindings hides secrets the rules saw (they read values with
// ShowSecrets) in what a finding shows: a secret key's value, a password in
// a connection URL, a token in a message.
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
		for k, v := range f.Values {
			if s, ok := v.(string); ok {
				f.Values[k] = redact.Value(k, s)
			} else if v != nil && redact.IsSecretKey(k) {
				f.Values[k] = redact.Placeholder
			}
		}
	}
}
