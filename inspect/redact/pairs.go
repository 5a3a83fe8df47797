package redact

import "strings"

// Pairs of name=value are what a trace, a JDBC URL or Java's toString of
// a config prints. Two regular expressions found them (names ending in a
// secret word; names IsSecretKey calls secret), and took 0.8 ms of the
// 1.4 ms a 3.6 KB stack trace spent in Text: a case-insensitive pattern
// with no literal prefix is tried at every byte. redactPairs finds the
// same pairs from each '=' instead.

// secretWords end a name whose value is secret (password=, sslpassword=,
// client_secret=, X-Amz-Signature=).
var secretWords = []string{"password", "passwd", "pwd", "secret", "token", "passphrase", "api_key", "apikey", "api-key", "signature", "credential"}

// redactPairs replaces the value of each NAME=VALUE whose name ends in a
// secret word, is exactly sig, key or code (Azure SAS, API keys, OAuth
// codes), or is a secret config key (IsSecretKey; an Authorization= is
// authHeader's, which keeps the scheme). NAME is a run of letters, digits,
// '_', '.' and '-' (spaces may stand before the '='); VALUE, after spaces,
// is an optional "…", '…', {…} or \"…\" followed by anything up to ; & ,
// space or a quote. A VALUE already redacted, empty or a config-provider
// reference is kept.
func redactPairs(s string) string {
	return replaceValues(s, '=', func(eq, last int) (v, end int, ok bool) {
		j, k := nameBefore(s, eq, last, isNameByte)
		// A name runs back to a byte of no name or the start of s; it never
		// reaches the last pair, whose value ends before a delimiter.
		if j == k || !secretName(s[j:k]) {
			return 0, 0, false
		}
		v = skipSpaces(s, eq+1)
		return v, valueEnd(s, v), true
	})
}

// replaceValues walks s from each sep byte: at (given the byte's place and
// the end of the last value found) says where a secret VALUE starts and
// ends, or that none is here (the walk goes on at the next byte). A VALUE
// neither empty, redacted already nor a config-provider reference is
// replaced; the walk goes on after it.
func replaceValues(s string, sep byte, at func(pos, last int) (v, end int, ok bool)) string {
	var b strings.Builder
	done := 0 // s[:done] is written to b (nothing while done is 0)
	last := 0
	for i := 0; i < len(s); {
		pos := strings.IndexByte(s[i:], sep)
		if pos < 0 {
			break
		}
		pos += i
		i = pos + 1
		v, end, ok := at(pos, last)
		if !ok {
			continue
		}
		if value := s[v:end]; value != "" && value != Placeholder && !IsProviderReference(value) {
			b.WriteString(s[done:v])
			b.WriteString(Placeholder)
			done = end
		}
		last, i = end, end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// nameBefore is the NAME s[j:k] that ends before pos, spaces between, made
// of bytes isName takes, not reaching back before last.
func nameBefore(s string, pos, last int, isName func(byte) bool) (j, k int) {
	k = pos
	for k > last && isSpace(s[k-1]) {
		k--
	}
	j = k
	for j > last && isName(s[j-1]) {
		j--
	}
	return j, k
}

// skipSpaces is the first byte from v on that is no space.
func skipSpaces(s string, v int) int {
	for v < len(s) && isSpace(s[v]) {
		v++
	}
	return v
}

// secretName says whether a NAME's value is redacted.
func secretName(name string) bool {
	lower := strings.ToLower(name)
	switch lower {
	case "sig", "key", "code":
		return true
	}
	for _, w := range secretWords {
		if strings.HasSuffix(lower, w) {
			return true
		}
	}
	return IsSecretKey(name) && !strings.Contains(lower, "authorization")
}

// valueEnd is where the VALUE starting at v ends.
func valueEnd(s string, v int) int {
	e := v
	if v < len(s) {
		switch s[v] {
		case '"', '\'':
			if c := strings.IndexByte(s[v+1:], s[v]); c >= 0 {
				e = v + 1 + c + 1
			}
		case '{':
			if c := strings.IndexByte(s[v+1:], '}'); c >= 0 {
				e = v + 1 + c + 1
			}
		case '\\':
			e = escapedQuoteEnd(s, v)
		}
	}
	for e < len(s) && !strings.ContainsRune(";&,\"' \t\n\f\r", rune(s[e])) {
		e++
	}
	return e
}

// escapedQuoteEnd is the end of \"…\" at v (a backslash, then a quote,
// then bytes none of which is a quote, each backslash taking the next
// byte but a quote, then a backslash and a quote), else v.
func escapedQuoteEnd(s string, v int) int {
	if v+1 >= len(s) || s[v+1] != '"' {
		return v
	}
	for p := v + 2; p < len(s); p++ {
		switch s[p] {
		case '"':
			return v
		case '\\':
			if p+1 < len(s) && s[p+1] == '"' {
				return p + 2
			}
			p++ // the escaped byte
		}
	}
	return v
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
