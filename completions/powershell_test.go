package completions

import (
	"regexp"
	"strings"
	"testing"
)

// PowerShell is not installed where the tests run, so the PowerShell
// script's quoting is checked by its text: the rule it applies (which
// candidates it leaves bare, how it quotes the others) is read out of the
// script and applied here, and the result is read back by PowerShell's
// single-quote rules. The shells that are installed are tested for real
// (TestCompletionInRealShells).
func TestPowerShellQuotesCandidates(t *testing.T) {
	script, err := Script("powershell")
	if err != nil {
		t.Fatal(err)
	}
	text := string(script)
	safeRule := regexp.MustCompile(`\$text -cnotmatch '([^']+)'`).FindStringSubmatch(text)
	quoteRule := regexp.MustCompile(`-replace '\[((?:''|[^'\]])+)\]', '\$0\$0'`).FindStringSubmatch(text)
	if safeRule == nil || quoteRule == nil {
		t.Fatalf("the script no longer quotes candidates as this test expects:\n%s", text)
	}
	if !strings.Contains(text, "CompletionResult]::new($text, $_, 'ParameterValue', $_)") {
		t.Error("the completion text is not the quoted candidate (or the list item not the candidate itself)")
	}
	// .NET's \w also takes letters of other scripts; ASCII names decide here.
	safe := regexp.MustCompile(safeRule[1])
	// The class of characters doubled, from .NET's \uXXXX to Go's \x{XXXX}.
	doubled := regexp.MustCompile("[" + regexp.MustCompile(`\\u([0-9A-Fa-f]{4})`).ReplaceAllString(strings.ReplaceAll(quoteRule[1], "''", "'"), `\x{$1}`) + "]")
	for _, q := range []string{"'", "\u2018", "\u2019", "\u201a", "\u201b"} {
		if !doubled.MatchString(q) {
			t.Errorf("PowerShell reads %q as a single quote; the script does not double it", q)
		}
	}
	quote := func(s string) string {
		if safe.MatchString(s) && s != "--%" {
			return s
		}
		var b strings.Builder
		b.WriteByte('\'')
		for _, r := range s {
			b.WriteRune(r)
			if isPSQuote(r) {
				b.WriteRune(r)
			}
		}
		b.WriteByte('\'')
		return b.String()
	}
	hostile := []string{"$(touch P)", "x;touch P;", "`touch P`", "a b", "*", "it's", "it\u2019s", "\u2018x\u201b", "a,b", "@splat", "#c", "x|y", "--%", "$env:HOME", "{x}", "(x)", "a&b"}
	for _, name := range hostile {
		got := quote(name)
		if got == name {
			t.Errorf("%q is inserted bare", name)
			continue
		}
		if back, ok := readPSSingleQuoted(got); !ok || back != name {
			t.Errorf("%q is inserted as %s, which PowerShell reads as %q (one string: %v)", name, got, back, ok)
		}
	}
	for _, plain := range []string{"inspect", "--from", "10.0.1.11:8083", "jdbc-orders.v2", "NAME="} {
		if quote(plain) != plain {
			t.Errorf("plain %q is quoted", plain)
		}
	}
}

func isPSQuote(r rune) bool { return r == '\'' || (r >= 0x2018 && r <= 0x201b) }

// readPSSingleQuoted reads a PowerShell single-quoted string that must
// make up the whole token: any single quote (also the typographic ones)
// doubled is one quote; a lone one ends the string.
func readPSSingleQuoted(tok string) (string, bool) {
	rs := []rune(tok)
	if len(rs) < 2 || !isPSQuote(rs[0]) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(rs); i++ {
		if isPSQuote(rs[i]) {
			if i+1 < len(rs) && isPSQuote(rs[i+1]) {
				b.WriteRune(rs[i+1])
				i++
				continue
			}
			return b.String(), i == len(rs)-1
		}
		b.WriteRune(rs[i])
	}
	return b.String(), false
}

func TestWriteCandidatesLeavesOutControls(t *testing.T) {
	var b strings.Builder
	if err := WriteCandidates(&b, []string{"a b", "two\nlines", "esc\x1b]0;t\x07", "c1\u009b", "bad\xff", "$(x)", "", "rlo\u202egpj.exe", "iso\u2066x", "lrm\u200e", "alm\u061c", "ls\u2028x", "ps\u2029x", "caf\u00e9"}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "a b\n$(x)\ncaf\u00e9\n"; got != want {
		t.Errorf("WriteCandidates wrote %q, want %q", got, want)
	}
}
