package check

import (
	"github.com/connectscope/connectscope/inspect/store"
)

// RedactFindings hides secrets the rules saw (they read values with
// ShowSecrets) in what a finding shows: a secret key's value, a password in
// a connection URL, a token in a message.
func RedactFindings(findings []Finding) {
	for i := range findings {
		f := &findings[i]
		f.Subject = store.RedactText(f.Subject)
		f.Message = store.RedactText(f.Message)
		f.Fix = store.RedactText(f.Fix) // a fix may quote the setting to change
		for k, v := range f.Values {
			if s, ok := v.(string); ok {
				f.Values[k] = store.RedactValue(k, s)
			} else if v != nil && store.IsSecretKey(k) {
				f.Values[k] = store.Redacted
			}
		}
	}
}
