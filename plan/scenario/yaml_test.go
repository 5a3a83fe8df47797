package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// referenceYAMLToJSON is how scenarios were read before: yaml.v3 decodes
// the whole document (quadratic in a mapping's size), then maps become
// JSON objects. yamlToJSON must read every document the same.
func referenceYAMLToJSON(data []byte) (_ []byte, err error) {
	// yaml.v3 itself panics on some documents (a mapping used as a key
	// inside a merge: "hash of unhashable type"); the reference then has
	// no answer, and ours is held only to not panicking (yamlToJSON runs
	// first in the fuzz target).
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var conv func(v any) any
	conv = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				t[k] = conv(x)
			}
			return t
		case map[any]any:
			m := make(map[string]any, len(t))
			for k, x := range t {
				m[fmt.Sprint(k)] = conv(x)
			}
			return m
		case []any:
			for i, x := range t {
				t[i] = conv(x)
			}
			return t
		}
		return v
	}
	return json.Marshal(conv(doc))
}

var yamlSeeds = []string{
	"scenario: 1\nsteps:\n  - connectors: {a: 1, b: 2}\n  - join: [w1, w2]\n",
	"{scenario: 1, steps: [{join: [a]}]}",
	"scenario: 1\nsteps:\n  - connectors:\n      a: 1\n      a: 2\n",
	"base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n",
	"other:\n  y: 3\n  <<: [{y: 4, z: 5}, {z: 6, w: 7}]\n",
	"a: &a [1, 2]\nb: [*a, *a]\n",
	"1: one\ntrue: yes\n~: null\n2.5: x\n",
	"a: !!str 12\nb: 0x1F\nc: .inf\nd: 2001-12-14\n",
	"",
	"- a\n- b: c\n",
	"a: [\n",
	"? [a, b]\n: c\n",
	// A mapping whose own keys are text names merged keys by their text too.
	"z: 1\n<<: [{7101, 0}, {000, 00}]\n",
	"z: 1\n<<: {~: a, true: b, 0x1F: c, 1.50: d, !!binary aGk=: g, 007: h}\n",
	"z: 1\n~: a\n~: b\n",
	// A mapping keyed by values compares a merged key by its value: 00
	// is the int 0, which the mapping already has; 0.0 is another key.
	"0: 0\n<<: [{00}]\n",
	"0: a\n<<: [{00: b, 0.0: c}, {000: d}]\nx: 1\n",
	"<<: {00: m}\n0: own\n",
	// A null key that a string-keyed mapping drops does not hold back an
	// empty-text key merged after it (CI fuzz finding).
	"A: \n<<: {~,10000, !000000 }\n",
	// A merge holds a place for the merging mapping's own << (a merged
	// key read as the text << gives way to it); a merged mapping's own
	// keys go in before what it merges itself (CI fuzz finding: the first).
	"<<: {!0 <<}",
	"<<: {<<: {a: 1}, a: 2}",
	"<<: [{<<: {a: 1}, a: 2}, {a: 3}]",
	"1: a\n<<: {!0 <<: x}",
	"x: {<<: {<<: {!0 <<: 1}}}",
	"! <<: {a: 1}\n",
	"\"<<\": {a: 1}\n",
	// A second document is refused; an empty one is not.
	"a: 1\n---\nb: 2\n",
	"a: 1\n---\n",
}

func FuzzYAMLScenarioMatchesYAMLv3(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got, gerr := yamlToJSON([]byte(doc))
		want, werr := referenceYAMLToJSON([]byte(doc))
		if werr != nil {
			return // yaml.v3 refuses it; ours may word it differently
		}
		var decoded any
		if yaml.Unmarshal([]byte(doc), &decoded) == nil && keysCollide(decoded) { // werr == nil: this decode does not panic either
			return // two keys print alike (0 and 0.0): yaml.v3's result depends on map order
		}
		if gerr != nil && moreThanOneDocument(doc) {
			return // yaml.v3's Unmarshal reads the first alone; ours refuses the rest
		}
		if gerr != nil && strings.Contains(gerr.Error(), "a second YAML document") {
			t.Fatalf("%q: ours finds a second document where yaml.v3 finds none: %v", doc, gerr)
		}
		if gerr != nil {
			if strings.Contains(gerr.Error(), "aliases expand") {
				return
			}
			t.Fatalf("yaml.v3 reads %q as %s; ours fails: %v", doc, want, gerr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: ours %s, yaml.v3 %s", doc, got, want)
		}
	})
}

// moreThanOneDocument says whether yaml.v3 finds more after the first
// document: a later one that holds anything (after empty ones too, as in
// "0\n---\n--- 0", a fuzz finding), or text it cannot read.
func moreThanOneDocument(doc string) bool {
	dec := yaml.NewDecoder(strings.NewReader(doc))
	var first any
	if dec.Decode(&first) != nil {
		return false
	}
	for {
		var next any
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil || next != nil {
			return true
		}
	}
}

// keysCollide says whether a decoded document holds a mapping with two
// keys that read the same as text.
func keysCollide(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if keysCollide(x) {
				return true
			}
		}
	case map[any]any:
		seen := map[string]bool{}
		for k, x := range t {
			if seen[fmt.Sprint(k)] || keysCollide(x) {
				return true
			}
			seen[fmt.Sprint(k)] = true
		}
	case []any:
		for _, x := range t {
			if keysCollide(x) {
				return true
			}
		}
	}
	return false
}

func TestYAMLScenarioDuplicatesAndAliases(t *testing.T) {
	_, err := yamlToJSON([]byte("connectors:\n  a: 1\n  b: 2\n  a: 3\n"))
	if err == nil || !strings.Contains(err.Error(), `line 4: mapping key "a" already defined at line 2`) {
		t.Errorf("duplicate key: %v", err)
	}
	// A billion laughs: each level doubles the one before.
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x]\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [*l%d, *l%d]\n", i, i, i-1, i-1)
	}
	if _, err := yamlToJSON([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "aliases expand") {
		t.Errorf("alias bomb: %v", err)
	}
}

// BenchmarkYAMLScenario60k reads a step of 60,000 connectors written as
// YAML (BENCHMARKS.md, "YAML scenarios").
func BenchmarkYAMLScenario60k(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("scenario: 1\nsteps:\n  - connectors:\n")
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&doc, "      c%05d: 1\n", i)
	}
	data := []byte(doc.String())
	b.ResetTimer()
	for range b.N {
		if _, err := yamlToJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
