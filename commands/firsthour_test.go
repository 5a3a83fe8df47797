package commands

import (
	"strings"
	"testing"
)

const snapshotFile = "../examples/cluster.snapshot.json"

// -o jsonl --jq runs the expression on each line, in inspect and check as in watch.
func TestJSONLJQPerLine(t *testing.T) {
	for _, args := range [][]string{
		{"inspect", "status", "--from", snapshotFile, "-o", "jsonl", "--jq", "select(.kind==\"connector\") | .name"},
		{"check", "all", "--from", snapshotFile, "--fail-on", "error", "-o", "jsonl", "--jq", ".rule"},
	} {
		out, stderr, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 || strings.ContainsAny(out, "{[") || strings.Contains(out, "null") {
			t.Errorf("%v: want one value per jsonl line, got %q", args, out)
		}
	}
}
