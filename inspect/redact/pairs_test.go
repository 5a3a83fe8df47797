package redact

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The reference redactPairs is held to, built on the regular expressions
// it replaced: a pair is a byte of no name, a name, spaces, '=', spaces and
// a value; its name is secret when it ends in a secret word (or is sig,
// key or code) or IsSecretKey calls it so. The leftmost pair with a secret
// name is replaced and what it spans taken; a pair whose name is not
// secret takes nothing (the search goes on from the byte after its start).
var (
	refPair       = regexp.MustCompile(`([^\w.\-])([\w.\-]+)\s*=\s*((?:"[^"]*"|'[^']*'|\{[^}]*\}|\\"(?:[^"\\]|\\[^"])*\\")?[^;&,\s"']*)`)
	refSecretWord = regexp.MustCompile(`(?i)^(?:[\w.\-]*(?:password|passwd|pwd|secret|token|passphrase|api_key|apikey|api-key|signature|credential)|sig|key|code)$`)
)

func refPairs(s string) string {
	t := "\x00" + s // the start of s, as a byte of no name
	var b strings.Builder
	done, p := 1, 0
	for {
		loc := refPair.FindStringSubmatchIndex(t[p:])
		if loc == nil {
			break
		}
		for i := range loc {
			loc[i] += p
		}
		name, value := t[loc[4]:loc[5]], t[loc[6]:loc[7]]
		if !refSecretWord.MatchString(name) && (!IsSecretKey(name) || strings.Contains(strings.ToLower(name), "authorization")) {
			p = loc[0] + 1
			continue
		}
		if value != "" && value != Placeholder && !IsProviderReference(value) {
			b.WriteString(t[done:loc[6]])
			b.WriteString(Placeholder)
			done = loc[7]
		}
		p = loc[1]
	}
	b.WriteString(t[done:])
	return b.String()
}

// foldsIntoASCII holds the runes whose case folds to an ASCII letter (the
// Kelvin sign, the long s): the reference's (?i) reads "paſſword" as
// password, where a config key is ASCII and redactPairs reads bytes.
func foldsIntoASCII(s string) bool { return strings.ContainsAny(s, "\u212a\u017f") }

// pairAlphabet builds strings dense in what the pairs turn on.
var pairAlphabet = []string{"=", " ", "password", "token", "sig", "key", "code", "aws.secret.access.key", "user.info", "Authorization",
	"tasks.max", "a", "B", ".", "-", "_", ";", "&", ",", `"`, "'", "{", "}", `\`, `\"`, "\n", "\t", "${file:/x:y}", Placeholder, "é", "\xff", ":", "@"}

// randomText is up to max words of alphabet.
func randomText(r *rand.Rand, alphabet []string, max int) string {
	var b strings.Builder
	for n := r.IntN(max); n > 0; n-- {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// shapesAndRandom is each credential shape's value and key, sep, value,
// then n strings of up to max words of alphabet.
func shapesAndRandom(sep string, r *rand.Rand, alphabet []string, n, max int) []string {
	inputs := []string{}
	for _, c := range credentialShapes {
		inputs = append(inputs, c.value, c.key+sep+c.value)
	}
	for range n {
		inputs = append(inputs, randomText(r, alphabet, max))
	}
	return inputs
}

// agree reports the first ten inputs on which got and want differ.
func agree(t *testing.T, inputs []string, name string, got, want func(string) string) {
	t.Helper()
	bad := 0
	for _, s := range inputs {
		if g, w := got(s), want(s); g != w && bad < 10 {
			bad++
			t.Errorf("%s(%q)\n = %q\nwant %q", name, s, g, w)
		}
	}
}

// redactPairs finds what the two expressions found, byte for byte, over
// the credential shapes and 200,000 strings made of the bytes and words
// the pairs turn on.
func TestRedactPairsIsTheExpressions(t *testing.T) {
	inputs := shapesAndRandom("=", rand.New(rand.NewPCG(1, 2)), pairAlphabet, 200000, 24)
	agree(t, inputs, "redactPairs", redactPairs, refPairs)
}

func FuzzRedactPairs(f *testing.F) {
	fuzzAgainst(f, "=", "redactPairs", redactPairs, refPairs, `x password=\"a\\\"b\" sig = {c} key='d' code="e"f;g`)
}

// fuzzAgainst fuzzes got against want from the credential shapes (key,
// sep, value) and seeds; the runes whose case folds into ASCII are left
// out, where a reference's (?i) reads letters a config key has not.
func fuzzAgainst(f *testing.F, sep, name string, got, want func(string) string, seeds ...string) {
	for _, c := range credentialShapes {
		f.Add(c.key + sep + c.value)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if foldsIntoASCII(s) {
			return
		}
		if g, w := got(s), want(s); g != w {
			t.Errorf("%s(%q)\n = %q\nwant %q", name, s, g, w)
		}
	})
}
