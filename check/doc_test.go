package check

import (
	"os"
	"testing"

	"github.com/connectscope/connectscope/internal/golden"
)

// RULES.md is the catalogue the README links to; it must match the code.
func TestRulesDoc(t *testing.T) {
	want := CatalogueMarkdown()
	if golden.Update() {
		if err := os.WriteFile("RULES.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatalf("reading RULES.md (regenerate with go test ./check -run TestRulesDoc -update): %v", err)
	}
	if string(got) != want {
		t.Errorf("RULES.md is out of date: go test ./check -run TestRulesDoc -update")
	}
}
