package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The README's pictures are what the code draws now.
func TestREADMEImagesUpToDate(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	if len(files) != 3 {
		t.Fatalf("%d pictures drawn, want 3", len(files))
	}
	for _, f := range files {
		got, _ := os.ReadFile(f)
		want, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "img", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/img/%s is stale or missing (%v): run go generate ./plan/plot", filepath.Base(f), err)
		}
	}
}
