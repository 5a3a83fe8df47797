package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// A file of another kind is refused, saying what it looks like; a file that
// decodes is not.
func TestNothingDecoded(t *testing.T) {
	dir := t.TempDir()
	classified := 0
	for name, c := range map[string]struct{ text, want string }{
		"README.md":         {"# Title\n\nSome prose.\n", "Markdown"},
		"worker.properties": {"# a worker\nbootstrap.servers=b:9092\n", "give it with the worker config"},
		"data.bin":          {"\x00\x01\x02", "binary data"},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		ds, err := LoadFile(path, inspect.TopicNames{})
		if err != nil {
			continue // refused while reading: nothing to classify
		}
		classified++
		err = NothingDecoded(path, ds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", name, err, c.want)
		}
	}
	if classified < 2 {
		t.Fatalf("only %d files reached the classification", classified)
	}
	ds, err := LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	if err := NothingDecoded("cluster.snapshot.json", ds); err != nil {
		t.Errorf("a snapshot: %v", err)
	}
}
