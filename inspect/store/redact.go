package store

import (
	"regexp"
	"strings"
)

// Redacted replaces the value of a secret config key in output.
const Redacted = "[redacted]"

// secretKeyParts are the fragments that make a config key secret when its
// lower-cased name contains one of them (json-output.md, "Redaction").
var secretKeyParts = []string{
	"password", "secret", "token", "credential", "jaas",
	"apikey", "api.key", "access.key", "private.key",
}

// providerReferencePattern matches a value that is exactly one config-provider reference,
// shaped like Kafka's ConfigTransformer pattern ${provider:[path:]key}.
var providerReferencePattern = regexp.MustCompile(`^\$\{[^}]*:[^}]*\}$`)

// IsSecretKey reports whether the value of config key name is hidden unless
// --show-secrets is given.
func IsSecretKey(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".key") {
		return true
	}
	for _, part := range secretKeyParts {
		if strings.Contains(lower, part) {
			return true
		}
	}
	return false
}

// IsProviderReference reports whether value is a config-provider reference
// such as ${file:/etc/secrets.properties:password}: it names where the secret
// lives, not the secret, so it is shown.
func IsProviderReference(value string) bool {
	return providerReferencePattern.MatchString(value)
}

// RedactConfig returns a copy of cfg with every secret value replaced by
// "[redacted]", or an unchanged copy when show is true. A nil map stays nil.
func RedactConfig(cfg map[string]string, show bool) map[string]string {
	if cfg == nil {
		return nil
	}
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		if !show && IsSecretKey(k) && !IsProviderReference(v) {
			v = Redacted
		}
		out[k] = v
	}
	return out
}

// redactValues is RedactConfig for decoded config maps, whose values are
// strings, nil (a JSON null) or raw JSON of another type (Connect keeps
// non-string property values as they are). A null hides nothing and stays.
func redactValues(cfg map[string]any, show bool) map[string]any {
	if cfg == nil {
		return nil
	}
	out := make(map[string]any, len(cfg))
	for k, v := range cfg {
		if !show && v != nil && IsSecretKey(k) {
			if s, ok := v.(string); !ok || !IsProviderReference(s) {
				v = Redacted
			}
		}
		out[k] = v
	}
	return out
}
