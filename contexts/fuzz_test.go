package contexts

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzLoadMatchesYAMLv3 holds the context-by-context decoder to yaml.v3's
// own strict decoding (KnownFields): a file Load accepts, yaml.v3 accepts
// with the same contexts, and finds no second document with content; Load
// never panics.
func FuzzLoadMatchesYAMLv3(f *testing.F) {
	for _, s := range []string{
		"contexts:\n  a: {group: g, timeout: 30s}\n  b:\n    bootstrap-server: k:9092\n    worker-config: [/w.properties]\n    tls: true\n",
		"current-context: a\ncontexts:\n  a:\n",
		"contexts: {a: {group: g}, a: {group: h}}\n",
		"contexts:\n  a: &x {group: g}\n  b: *x\n",
		"contexts:\n  a: {<<: {group: g}, status-topic: s}\n",
		"colour: red\n",
		"contexts: [a, b]\n",
		"contexts:\n  a: {timeout: soon}\n",
		"contexts:\n  a: {sasl-password-env: A, sasl-password-file: /f}\n",
		"- a\n",
		"contexts: {<<}\n", // a merge among the contexts (CI fuzz finding)
		"contexts: {a: {<<: 1}}\n",
		"contexts: {a: {<<: [{group: g}, 2]}}\n",
		"contexts: {a: {\"<<\": {group: g}}}\n",
		"contexts: {~}\n", // a null name, which yaml.v3 drops (CI fuzz finding)
		"contexts: {null: {group: g}, a: {}}\n",
		"contexts: {\"~\": {group: g}}\n",
		"contexts: {a: {}}\n---\ncontexts: {b: {}}\n", // a second document, which a rewrite would drop
		"contexts: {a: {}}\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			return
		}
		var want File
		dec := yaml.NewDecoder(bytes.NewReader([]byte(doc)))
		dec.KnownFields(true)
		if derr := dec.Decode(&want); derr != nil {
			if errors.Is(derr, io.EOF) || len(bytes.TrimSpace([]byte(doc))) == 0 {
				return // no document (blank, or comments only): both read no context
			}
			t.Fatalf("Load accepts %q, yaml.v3 refuses it: %v", doc, derr)
		}
		for {
			var next yaml.Node
			if dec.Decode(&next) != nil {
				break
			}
			if len(next.Content) > 0 && next.Content[0].Tag != "!!null" {
				t.Fatalf("Load accepts %q, which has a second document", doc)
			}
		}
		if want.CurrentContext != got.CurrentContext || len(want.Contexts) != len(got.Contexts) {
			t.Fatalf("%q: Load %+v, yaml.v3 %+v", doc, got, want)
		}
		for name, w := range want.Contexts {
			g := got.Contexts[name]
			if w == nil {
				w = &Context{}
			}
			w.resolvePaths(filepath.Dir(path))
			if g == nil || !reflect.DeepEqual(*w, *g) {
				t.Fatalf("%q: context %q: Load %+v, yaml.v3 %+v", doc, name, g, w)
			}
		}
	})
}
