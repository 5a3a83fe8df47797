package redact

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// refSecretHeader is the expression redactHeaders replaced, its reference.
var refSecretHeader = regexp.MustCompile(`(?i)((?:^|[\s,;|{"'])(?:x-[\w\-]*(?:key|token|secret|auth|sig|pass|session|credential)[\w\-]*|[\w\-]*(?:api-?key|-token|_token|secret)|token|apikey)\s*:\s*)([^\s,;|"']+)`)

func refHeaders(s string) string {
	return refSecretHeader.ReplaceAllStringFunc(s, func(m string) string {
		sub := refSecretHeader.FindStringSubmatch(m)
		if sub[2] == Placeholder || IsProviderReference(sub[2]) {
			return m
		}
		return sub[1] + Placeholder
	})
}

var headerAlphabet = []string{":", " ", "\t", ",", ";", "|", "{", `"`, "'", "x-", "X-Api-Key", "api-key", "apikey", "-token", "_token", "token",
	"secret", "Auth", "sig", "pass", "session", "credential", "key", "a", "B", "-", "_", ".", "=", Placeholder, "${file:/x:y}", "é", "\xff", "\n"}

// redactHeaders finds what the expression found, byte for byte, over the
// credential shapes and 200,000 strings made of what headers turn on.
func TestRedactHeadersIsTheExpression(t *testing.T) {
	inputs := shapesAndRandom(": ", rand.New(rand.NewPCG(5, 6)), headerAlphabet, 200000, 16)
	agree(t, inputs, "redactHeaders", redactHeaders, refHeaders)
}

func FuzzRedactHeaders(f *testing.F) {
	fuzzAgainst(f, ": ", "redactHeaders", redactHeaders, refHeaders, `{"X-Auth-Token" : v1|Api-Key:v2, token:${env:x:y} x-sig:[redacted]`)
}
