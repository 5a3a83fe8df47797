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

// Flags work after positional arguments, as the README promises.
func TestFlagsAfterArguments(t *testing.T) {
	out, stderr, code := run(t, "check", "explain", "D1", "-o", "json")
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("check explain D1 -o json: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = run(t, "completion", "bash", "--help")
	if code != 0 || !strings.Contains(out, "USAGE") {
		t.Errorf("completion bash --help: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = run(t, "plan", "replay", "../plan/testdata/nosuch.json", "--output=json", "--timeout", "5s")
	if code != ExitInput {
		t.Errorf("plan replay FILE --output=json --timeout 5s: exit %d (want %d, file missing), stderr %q", code, ExitInput, stderr)
	}
	// After --, everything is an argument.
	_, stderr, code = run(t, "check", "explain", "--", "-o")
	if code != ExitUsage || !strings.Contains(stderr, `"-o"`) {
		t.Errorf("check explain -- -o: exit %d, stderr %q", code, stderr)
	}
}
