// Package redact hides secrets wherever connectscope shows or writes
// them: config values by their key, credentials inside free text (URLs,
// traces, headers), and whole datasets before they go to a file, where the
// session key's material goes even under --show-secrets.
package redact

import (
	"regexp"
	"strings"
)

// Placeholder replaces the value of a secret config key in output.
const Placeholder = "[redacted]"

// secretKeyParts are the fragments that make a config key secret when its
// lower-cased name contains one of them (json-output.md, "Redaction").
var secretKeyParts = []string{
	"password", "passwd", "pwd", "secret", "token", "credential", "jaas",
	"apikey", "api.key", "api_key", "api-key", "access.key", "access_key",
	"private.key", "private_key", "privatekey", "passphrase",
	"user.info", "userinfo", // schema registry's basic.auth.user.info = user:password
	"authorization",
}

// notSecretKeys end like secret ones but hold settings, not secrets.
var notSecretKeys = []string{"ssl.client.auth"}

// secretKeySuffixes make a key secret when its lower-cased name ends with one.
var secretKeySuffixes = []string{".key", "_key", ".auth", "_auth", ".pw", "_pw", "-pw"}

// providerReferencePattern matches a value that is exactly one config-provider reference,
// shaped like Kafka's ConfigTransformer pattern ${provider:[path:]key}.
var providerReferencePattern = regexp.MustCompile(`^\$\{[^}]*:[^}]*\}$`)

// IsSecretKey reports whether the value of config key name is hidden unless
// --show-secrets is given.
func IsSecretKey(name string) bool {
	lower := strings.ToLower(name)
	for _, k := range notSecretKeys {
		if strings.HasSuffix(lower, k) {
			return false
		}
	}
	for _, suffix := range secretKeySuffixes {
		if strings.HasSuffix(lower, suffix) {
			return true
		}
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

// Credentials embedded in values that are not secret by their key: the
// secret part is replaced and the rest stays readable.
var (
	// scheme://user:password@host — the password, up to the last @ of the
	// authority (a password may hold an unencoded @).
	urlUserInfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^/?#\s:@"']*:)[^/?#\s"']*@`)
	// Oracle's thin driver: jdbc:oracle:thin:USER/PASSWORD@host (also
	// jdbc:oracle:oci:, and USER/PASSWORD@//host).
	oracleUserPassword = regexp.MustCompile(`(?i)(jdbc:oracle:[a-z0-9]+:[^/@\s"';:]*/)[^@\s"']*@`)
	// A JSON-valued config or trace holding "password":"…" (also escaped
	// once more, \"password\":\"…\", as JSON inside a JSON string).
	jsonSecretField = regexp.MustCompile(`(?i)(\\?"[\w.\-]*(?:password|passwd|pwd|secret|token|passphrase|apikey|api_key|api-key|private_key|privatekey|credential)[\w.\-]*\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)`)
	// Any "name":"value" whose name is a secret config key by IsSecretKey
	// ("basic.auth.user.info":"…"), as a JSON config in a trace prints it.
	// (name=value pairs are redactPairs'.)
	secretKeyJSON = regexp.MustCompile(`(\\?"([\w.\-]+)\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)`)
	// HTTP headers: Authorization: Basic xyz, Authorization=Bearer xyz, and
	// any Bearer token on its own.
	authHeader  = regexp.MustCompile(`(?i)((?:proxy-)?authorization\s*[:=]\s*)(?:(basic|bearer|digest|negotiate|token)\s+)?[^\s,;|"']+`)
	bearerToken = regexp.MustCompile(`(?i)\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*`)
	// Webhook URLs carry their token in the path (Slack, Discord, Teams,
	// Mattermost, Zapier): what follows the hook's segment is replaced.
	webhookPath = regexp.MustCompile(`(?i)(https?://(?:[^/\s"'?#]*hook[^/\s"'?#]*/(?:services/|hooks/|catch/|webhookb2/)?|[^/\s"'?#]+/(?:[^\s"'?#]*/)?(?:webhooks?|hooks)/))[^\s"'?#]+`)
	// Telegram's bot API: /bot123456:TOKEN/.
	botToken = regexp.MustCompile(`(/bot[0-9]+:)[A-Za-z0-9_\-]+`)
)

// Text replaces credentials embedded in free text (a config value, a
// stack trace, a watch message, an error): the password of user:password@
// in URLs and of Oracle's user/password@, password= and other secret
// parameters, "password":"…" fields of JSON text, Authorization and other
// secret header values, Bearer tokens and the tokens in webhook URLs. The
// rest of the text is kept, so a connection URL stays readable.
func Text(s string) string {
	lower := strings.ToLower(s)
	if !mayHoldCredential(s, lower) {
		return s
	}
	for _, st := range textStages {
		if st.needs(s, lower) {
			s = st.apply(s)
		}
	}
	return s
}

// textStage is one kind of credential Text replaces. needs is true of any
// text apply could change (s, and s in lower case): each expression runs
// only where the text holds what it needs, since a 3.6 KB stack trace took
// 1.4 ms with every one tried at every byte. The placeholder that replaces
// a credential adds nothing a later stage needs.
type textStage struct {
	needs func(s, lower string) bool
	apply func(s string) string
}

var textStages = []textStage{
	{func(s, _ string) bool { return strings.Contains(s, "://") && strings.Contains(s, "@") },
		func(s string) string { return urlUserInfo.ReplaceAllString(s, "${1}"+Placeholder+"@") }},
	{func(_, lower string) bool { return strings.Contains(lower, "jdbc:oracle:") },
		func(s string) string { return oracleUserPassword.ReplaceAllString(s, "${1}"+Placeholder+"@") }},
	{func(s, _ string) bool { return strings.Contains(s, "=") }, redactPairs},
	{func(s, _ string) bool { return strings.Contains(s, `"`) }, func(s string) string {
		return jsonSecretField.ReplaceAllStringFunc(s, func(m string) string {
			sub := jsonSecretField.FindStringSubmatch(m)
			if sub[2] == "" || sub[2] == Placeholder || IsProviderReference(sub[2]) {
				return m
			}
			return sub[1] + Placeholder
		})
	}},
	{func(_, lower string) bool { return strings.Contains(lower, "authorization") }, func(s string) string {
		return authHeader.ReplaceAllStringFunc(s, func(m string) string {
			sub := authHeader.FindStringSubmatch(m)
			if sub[2] != "" {
				return sub[1] + sub[2] + " " + Placeholder
			}
			return sub[1] + Placeholder
		})
	}},
	{func(s, _ string) bool { return strings.Contains(s, ":") }, redactHeaders},
	{func(_, lower string) bool { return strings.Contains(lower, "bearer") }, func(s string) string {
		return bearerToken.ReplaceAllStringFunc(s, func(m string) string {
			sub := bearerToken.FindStringSubmatch(m)
			if strings.HasPrefix(m[len(sub[1]):], Placeholder) || strings.HasPrefix(m[len(sub[1]):], "[") {
				return m
			}
			return sub[1] + Placeholder
		})
	}},
	{func(_, lower string) bool { return strings.Contains(lower, "hook") }, func(s string) string {
		return webhookPath.ReplaceAllStringFunc(s, func(m string) string {
			sub := webhookPath.FindStringSubmatch(m)
			if strings.HasPrefix(m[len(sub[1]):], Placeholder) {
				return m
			}
			return sub[1] + Placeholder
		})
	}},
	{func(s, _ string) bool { return strings.Contains(s, "/bot") },
		func(s string) string { return botToken.ReplaceAllString(s, "${1}"+Placeholder) }},
	{func(s, _ string) bool { return strings.Contains(s, `"`) },
		func(s string) string { return redactBySecretKey(secretKeyJSON, s) }},
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// redactBySecretKey replaces the value (group 3) of each match of re whose
// name (group 2) is a secret key, keeping the rest (group 1).
func redactBySecretKey(re *regexp.Regexp, s string) string {
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		// Authorization=Basic … is authHeader's: the scheme stays.
		if !IsSecretKey(sub[2]) || strings.Contains(strings.ToLower(sub[2]), "authorization") || sub[3] == "" || sub[3] == Placeholder || IsProviderReference(sub[3]) {
			return m
		}
		return sub[1] + Placeholder
	})
}

// mayHoldCredential is the fast path: most values hold none of the markers
// (lower is s in lower case).
func mayHoldCredential(s, lower string) bool {
	if strings.Contains(s, "@") {
		return true
	}
	for _, marker := range []string{"pass", "pwd", "secret", "token", "key", "auth", "bearer", "sig=", "hook", "/bot", "credential", "code=", "jaas", "userinfo", "user.info", "pw"} {
		if strings.Contains(lower, marker) {
			return true
		}
	}
	return false
}

// Value is what output shows for config key's value: "[redacted]" for
// a secret key (unless the value is a provider reference), else the value
// with any embedded credential redacted.
func Value(key, value string) string {
	if IsSecretKey(key) {
		if IsProviderReference(value) {
			return value
		}
		return Placeholder
	}
	return Text(value)
}

// Config returns a copy of cfg with every secret value replaced by
// "[redacted]", or an unchanged copy when show is true. A nil map stays nil.
func Config(cfg map[string]string, show bool) map[string]string {
	if cfg == nil {
		return nil
	}
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		if !show {
			v = Value(k, v)
		}
		out[k] = v
	}
	return out
}

// Values is Config for decoded config maps, whose values are
// strings, nil (a JSON null) or raw JSON of another type (Connect keeps
// non-string property values as they are). A null hides nothing and stays.
func Values(cfg map[string]any, show bool) map[string]any {
	if cfg == nil {
		return nil
	}
	out := make(map[string]any, len(cfg))
	for k, v := range cfg {
		if !show && v != nil {
			if s, ok := v.(string); ok {
				v = Value(k, s)
			} else if IsSecretKey(k) {
				v = Placeholder
			}
		}
		out[k] = v
	}
	return out
}

// Trace is a status trace as output shows it.
func Trace(s *string, show bool) *string {
	if s == nil || show {
		return s
	}
	r := Text(*s)
	return &r
}
