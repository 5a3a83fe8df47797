package check

import (
	"github.com/connectscope/connectscope/inspect/redact"
)

// RedactFindings hides secrets the rules saw (they read values with
// ShowSecrets) in what a finding shows: a secret key's value, a password in
// a connection URL, a token in a message.
func RedactFindings(findings []Finding) {
	for i := range findings {
		f := &findings[i]
		f.Subject = redact.Text(f.Subject)
		f.Message = redact.Text(f.Message)
		f.Fix = redact.Text(f.Fix) // a fix may quote the setting to change
		for k, v := range f.Values {
			if s, ok := v.(string); ok {
				f.Values[k] = redact.Value(k, s)
			} else if v != nil && redact.IsSecretKey(k) {
				f.Values[k] = redact.Placeholder
			}
		}
	}
}
