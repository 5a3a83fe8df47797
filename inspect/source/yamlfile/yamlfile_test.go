package yamlfile

import (
	"errors"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int // of the refused document; 0: accepted
		kind     yaml.Kind
	}{
		{name: "empty", in: ""},
		{name: "comments only", in: "# nothing yet\n"},
		{name: "one document", in: "a: 1\n", kind: yaml.DocumentNode},
		{name: "opened with ---", in: "---\na: 1\n", kind: yaml.DocumentNode},
		{name: "a trailing ---", in: "a: 1\n---\n", kind: yaml.DocumentNode},
		{name: "trailing --- and ...", in: "a: 1\n---\n...\n---\n", kind: yaml.DocumentNode},
		{name: "a second document", in: "a: 1\n---\nb: 2\n", line: 3},
		{name: "a list after an empty one", in: "a: 1\n---\n---\n- x\n", line: 4},
		{name: "a scalar second document", in: "a: 1\n--- hello\n", line: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Decode([]byte(c.in))
			var second *SecondDocumentError
			switch {
			case c.line > 0 && (!errors.As(err, &second) || second.Line != c.line):
				t.Fatalf("want a second document at line %d, got %v", c.line, err)
			case c.line == 0 && err != nil:
				t.Fatalf("refused: %v", err)
			case c.line == 0 && doc.Kind != c.kind:
				t.Fatalf("node kind %v, want %v", doc.Kind, c.kind)
			}
		})
	}
	if _, err := Decode([]byte("a: [1\n")); err == nil {
		t.Error("a syntax error in the first document was accepted")
	}
	if _, err := Decode([]byte("a: 1\n---\nb: [1\n")); err == nil {
		t.Error("a syntax error in a later document was accepted")
	}
}
