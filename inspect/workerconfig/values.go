package workerconfig

import (
	"fmt"
	"github.com/connectscope/connectscope/inspect/redact"
	"regexp"
	"strconv"
	"strings"
)

// providerRef matches Kafka's ConfigTransformer pattern: ${provider:path:key} or ${provider:key}.
var providerRef = regexp.MustCompile(`\$\{([^}]*?):(([^}]*?):)?([^}]*?)\}`)

// HasProviderRef reports whether a config value contains a config-provider
// reference such as ${file:/etc/secrets:password} or ${env:PASSWORD}.
func HasProviderRef(v string) bool {
	return strings.Contains(v, "${") && providerRef.MatchString(v)
}

// ValueError is a worker setting whose value Kafka would not accept. It names
// file, key and value so a user can find it.
type ValueError struct {
	Path   string
	Key    string
	Value  string
	Reason string
}

func (e *ValueError) Error() string {
	if redact.IsSecretKey(e.Key) {
		return fmt.Sprintf("%s: %s: %s", e.Path, e.Key, e.Reason) // never quote a secret
	}
	return fmt.Sprintf("%s: %s = %q: %s", e.Path, e.Key, e.Value, e.Reason)
}

// Int returns an INT setting (Java int) such as session.timeout.ms. set is
// false when the file does not have the key. A value Kafka would reject at
// startup (not an integer, a unit such as "30s", out of range, a provider
// reference) is a *ValueError.
func (w *Config) Int(key string) (v int64, set bool, err error) {
	return w.number(key, 32)
}

// Long returns a LONG setting (Java long) such as offset.flush.timeout.ms.
func (w *Config) Long(key string) (v int64, set bool, err error) {
	return w.number(key, 64)
}

func (w *Config) number(key string, bits int) (int64, bool, error) {
	raw, ok := w.Props[key]
	if !ok {
		return 0, false, nil
	}
	v, reason := ParseJavaInt(raw, bits)
	if reason != "" {
		return 0, true, &ValueError{Path: w.Path, Key: key, Value: raw, Reason: reason}
	}
	return v, true, nil
}

// ParseJavaInt parses a number as Kafka's ConfigDef does for INT (bits=32) and
// LONG (bits=64): surrounding blanks trimmed, optional sign, decimal digits
// only. reason is empty on success and says what is wrong otherwise.
func ParseJavaInt(raw string, bits int) (int64, string) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return 0, "empty value where a number is required"
	}
	if HasProviderRef(s) {
		return 0, "config-provider reference; connectscope does not resolve it"
	}
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
		if unit := durationUnit(digits); unit != "" {
			return 0, fmt.Sprintf("Kafka accepts only an integer number of milliseconds here, not a unit like %q", unit)
		}
		return 0, "not an integer"
	}
	v, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		kind := "int"
		if bits == 64 {
			kind = "long"
		}
		return 0, fmt.Sprintf("out of range for a Java %s", kind)
	}
	return v, ""
}

// durationUnit returns the unit of a value like "30s" or "5min", else "".
func durationUnit(s string) string {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 || i == len(s) {
		return ""
	}
	switch u := strings.ToLower(strings.TrimSpace(s[i:])); u {
	case "ms", "s", "sec", "secs", "second", "seconds", "m", "min", "mins", "minute", "minutes", "h", "hr", "hour", "hours", "d", "day", "days", "us", "ns":
		return strings.TrimSpace(s[i:])
	}
	return ""
}
