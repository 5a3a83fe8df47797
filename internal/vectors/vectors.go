// Package vectors finds the shared test vectors (Kafka's own classes'
// output, kept beside the repository) for tests in any package.
package vectors

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Dir returns the directory of one kind of shared vectors ("protocol",
// "assignor/public", ...), found from the module root so that a test reads
// the same files whatever its package's depth. It fails tb when the module
// root cannot be found.
func Dir(tb testing.TB, kind string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "vectors", filepath.FromSlash(kind))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("no go.mod above the test's directory: cannot find the shared vectors")
		}
		dir = parent
	}
}

// ProtocolSeeds returns the bytes of every group-protocol vector of one kind
// ("metadata" or "assignment"; join_protocols count as metadata), to seed a
// fuzz corpus.
func ProtocolSeeds(tb testing.TB, kind string) [][]byte {
	tb.Helper()
	dir := Dir(tb, "protocol")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no protocol vectors in %s (err %v): the shared vectors must sit beside the repo", dir, err)
	}
	var out [][]byte
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		var v struct {
			Kind    string          `json:"kind"`
			Hex     *string         `json:"hex"`
			Decoded json.RawMessage `json:"decoded"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		var hexes []string
		switch {
		case v.Kind == kind && v.Hex != nil:
			hexes = append(hexes, *v.Hex)
		case kind == "metadata" && v.Kind == "join_protocols":
			var join struct {
				Protocols []struct {
					MetadataHex string `json:"metadata_hex"`
				} `json:"protocols"`
			}
			if err := json.Unmarshal(v.Decoded, &join); err != nil {
				tb.Fatalf("%s: %v", p, err)
			}
			for _, jp := range join.Protocols {
				hexes = append(hexes, jp.MetadataHex)
			}
		}
		for _, h := range hexes {
			b, err := hex.DecodeString(h)
			if err != nil {
				tb.Fatalf("%s: %v", p, err)
			}
			out = append(out, b)
		}
	}
	return out
}

// File is one vector file: its name without the pattern's suffix (from the
// last '*' on) and its bytes.
type File struct {
	Name string
	Data []byte
}

// Read returns the files of one kind of vectors whose names match pattern
// (as filepath.Match, e.g. "*.scenario.json"), in name order. It fails tb
// when there are none.
func Read(tb testing.TB, kind, pattern string) []File {
	tb.Helper()
	dir := Dir(tb, kind)
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no vectors %s in %s (err %v): the shared vectors must sit beside the repo", pattern, dir, err)
	}
	sort.Strings(paths)
	suffix := pattern[strings.LastIndex(pattern, "*")+1:]
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, File{Name: strings.TrimSuffix(filepath.Base(p), suffix), Data: data})
	}
	return out
}
