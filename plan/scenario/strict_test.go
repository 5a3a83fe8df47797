package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// firstDuplicate is strictJSON's reference, on encoding/json's tokens: the
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

// strictJSON finds the key encoding/json's tokens show given twice, and
// only that, in every valid document; a valid document followed by another
// is refused.
func FuzzStrictJSON(f *testing.F) {
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
			_ = strictJSON([]byte(doc)) // held to not panicking
			return
		}
		want, twice := firstDuplicate(doc)
		err := strictJSON([]byte(doc))
		var se *ScenarioError
		switch {
		case !twice && err != nil:
			t.Fatalf("%q: no key given twice, but %v", doc, err)
		case twice && (!errors.As(err, &se) || !strings.Contains(err.Error(), fmt.Sprintf("key %q given twice", want))):
			t.Fatalf("%q: key %q given twice, but %v", doc, want, err)
		}
		if !twice {
			if err := strictJSON([]byte(doc + "\n# a comment\n")); err != nil {
				t.Fatalf("%q and a comment: %v", doc, err)
			}
			trimmed := strings.TrimSpace(doc)
			if trimmed != "" && (trimmed[0] == '{' || trimmed[0] == '[') {
				if err := strictJSON([]byte(doc + " " + doc)); err == nil || !strings.Contains(err.Error(), "more after") {
					t.Fatalf("%q twice: %v", doc, err)
				}
			}
		}
	})
}
