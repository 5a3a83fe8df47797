package jsonscan

import (
	"encoding/json"
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
