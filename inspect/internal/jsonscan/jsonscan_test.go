package jsonscan

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestValidIsJSONValid(t *testing.T) {
	for _, in := range []string{`{}`, `[]`, ` {"a": [1, -0.5e+3, "x\u00e9\n", true, false, null]} `, `{"a":1,}`, `[1 2]`, `"\x"`, `-`, `01`, `1.`, `1e`, `"\u12"`, "\"\x01\"", `{"a" 1}`, ``, `nul`, strings.Repeat("[", 300) + strings.Repeat("]", 300)} {
		valid, sure := Valid([]byte(in))
		if !sure {
			if !strings.HasPrefix(in, strings.Repeat("[", MaxDepth)) {
				t.Errorf("%q: not sure", in)
			}
			continue
		}
		if valid != json.Valid([]byte(in)) {
			t.Errorf("Valid(%q) = %v, json.Valid says otherwise", in, valid)
		}
	}
}

func TestNumberStopsWhereTheGrammarBreaks(t *testing.T) {
	for in, want := range map[string]struct {
		end         int
		integer, ok bool
	}{"12,": {2, true, true}, "-0.5}": {4, false, true}, "1e+9": {4, false, true}, "-x": {1, false, false}, "1.x": {2, false, false}, "2E-": {3, false, false}} {
		end, integer, ok := Number([]byte(in), 0)
		if end != want.end || integer != want.integer || ok != want.ok {
			t.Errorf("Number(%q) = %d %v %v, want %+v", in, end, integer, ok, want)
		}
	}
}

func TestPunct(t *testing.T) {
	for _, c := range []struct {
		in   string
		next int
		ok   bool
	}{{"{", 1, true}, {" \t{ \n\"a\"", 5, true}, {"{}", 1, true}, {" [", 1, false}, {"", 0, false}, {"  ", 2, false}} {
		next, ok := Punct([]byte(c.in), 0, '{')
		if next != c.next || ok != c.ok {
			t.Errorf("Punct(%q, '{') = %d %v, want %d %v", c.in, next, ok, c.next, c.ok)
		}
	}
}

// Valid agrees with encoding/json whenever it is sure.
func FuzzValidIsJSONValid(f *testing.F) {
	for _, in := range []string{`{}`, `[]`, `{"a":[1,{"b":null}],"c":"d"}`, `[1,]`, `{"a":}`, `{"a":1 "b":2}`, `[[[]]]`, `{"a":[}`} {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if valid, sure := Valid(in); sure && valid != json.Valid(in) {
			t.Errorf("Valid(%q) = %v, json.Valid says otherwise", in, valid)
		}
	})
}

// Digits reads 1 to 18 digits, as strconv does, and nothing else.
func TestDigits(t *testing.T) {
	for _, in := range []string{"0", "7", "007", "123456789012345678", "999999999999999999"} {
		want, _ := strconv.ParseInt(in, 10, 64)
		if got, ok := Digits([]byte(in)); !ok || got != want {
			t.Errorf("Digits(%q) = %d, %v; want %d, true", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "-1", "+1", "1e3", "1.0", " 1", "1234567890123456789"} {
		if got, ok := Digits([]byte(in)); ok {
			t.Errorf("Digits(%q) = %d, true; want false", in, got)
		}
	}
}
