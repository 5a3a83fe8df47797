package jsonfile

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// firstDuplicate is Check's reference, on encoding/json's tokens: the
// first key given twice in one object of a valid document, if any.
func firstDuplicate(doc string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(doc))
	type level struct {
		keys    map[string]bool
		wantKey bool
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if key, ok := tok.(string); ok && len(stack) > 0 && stack[len(stack)-1].wantKey {
			l := stack[len(stack)-1]
			if l.keys[key] {
				return key, true
			}
			l.keys[key], l.wantKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &level{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].keys != nil {
			stack[len(stack)-1].wantKey = true
		}
	}
}

// Check finds the key encoding/json's tokens show given twice, and
// only that, in every valid document; a valid document followed by another
// is refused.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"scenario": 1, "steps": [{"connectors": {"a": 1, "a": 2}}]}`,
		`{"a": {"b": 1}, "b": {"a": 1}}`,
		`{"a\u0062": 1, "ab": 2}`,
		`{"a": [{}, {"x": "\"}", "x": 0}]}`,
		`{"": 1, "": 2}`,
		`[1, "a", {"k": [true, null]}]`,
		`{"a": "x:y,z]}", "b": -1.5e3}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			_ = Check([]byte(doc)) // held to not panicking
			return
		}
		want, twice := firstDuplicate(doc)
		err := Check([]byte(doc))
		var dup *DuplicateKeyError
		switch {
		case !twice && err != nil:
			t.Fatalf("%q: no key given twice, but %v", doc, err)
		case twice && (!errors.As(err, &dup) || dup.Key != want):
			t.Fatalf("%q: key %q given twice, but %v", doc, want, err)
		}
		if !twice {
			if err := Check([]byte(doc + "\n# a comment\n")); err != nil {
				t.Fatalf("%q and a comment: %v", doc, err)
			}
			trimmed := strings.TrimSpace(doc)
			if trimmed != "" && (trimmed[0] == '{' || trimmed[0] == '[') {
				var trailing *TrailingError
				if err := Check([]byte(doc + " " + doc)); !errors.As(err, &trailing) || trailing.Offset != len(doc)+1+len(doc)-len(strings.TrimLeft(doc, " \t\r\n")) {
					t.Fatalf("%q twice: %v", doc, err)
				}
			}
		}
	})
}

func TestCheckNamesThePlace(t *testing.T) {
	for doc, want := range map[string]string{
		`{"a": 1, "a": 2}`: `the top level: key "a" given twice`,
		`{"scenario": 1, "steps": [{"at_ms": 0}, {"connectors": {"x": 1, "x": 2}}]}`: `steps[1].connectors: key "x" given twice`,
		`{"workers": {"h:1": 5, "h\u003a1": 6}}`:                                     `workers: key "h:1" given twice`,
		`[{"a": [{"b": 1, "b": 1}]}]`:                                                `[0].a[0]: key "b" given twice`,
		`{"a": 1} {"a": 1}`:                                                          `more after the first JSON value (byte 9)`,
		`{"a": 1}` + "\n# a comment\n  \n":                                           ``,
		`{a: 1, a: 2}`:                                                               ``, // YAML's flow style: the YAML reader's
		`{"a": "\x", "a": 2}`:                                                        ``, // not JSON: the decoder's to report
	} {
		err := Check([]byte(doc))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Check(%q) = %q, want %q", doc, got, want)
		}
	}
}

// BenchmarkCheckLargeScenario is the walk over a scenario of 60,000
// connectors in one step, the size the replay benchmarks use.
func BenchmarkCheckLargeScenario(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"scenario": 1, "steps": [{"join": ["w1", "w2"]}, {"connectors": {`)
	for i := range 60000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(`"connector-` + strconv.Itoa(i) + `": 4`)
	}
	sb.WriteString("}}]}")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := Check(data); err != nil {
			b.Fatal(err)
		}
	}
}
