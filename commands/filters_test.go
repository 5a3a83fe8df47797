package commands

import (
	"strings"
	"testing"
)

// The filters operators expect, on the views that list connectors.
func TestViewFilters(t *testing.T) {
	t.Parallel()
	out, stderr, code := run(t, "inspect", "status", "--from", snapshotFile, "--state", "FAILED", "-o", "json", "--jq", `[.connectors[].name, .tasks[].id] | join(",")`)
	if code != 0 || strings.TrimSpace(out) != "debezium-inventory-0" {
		t.Errorf("status --state FAILED: exit %d %q %s", code, out, stderr)
	}
	out, _, code = run(t, "inspect", "connectors", "--from", snapshotFile, "--type", "sink", "-e", "orders", "--jq", `[.connectors[].name] | join(",")`)
	if code != 0 || strings.TrimSpace(out) != "es-orders-sink,s3-orders-sink" {
		t.Errorf("connectors --type sink -e orders: exit %d %q", code, out)
	}
	out, _, code = run(t, "inspect", "offsets", "--from", snapshotFile, "-e", "^mongo", "--jq", `[.offsets[].connector] | unique | join(",")`)
	if code != 0 || strings.TrimSpace(out) != "mongo-events-source" {
		t.Errorf("offsets -e ^mongo: exit %d %q", code, out)
	}
	out, _, code = run(t, "inspect", "sinks", "--from", snapshotFile, "-e", "^s3", "--jq", `[.sinks[].connector] | join(",")`)
	if code != 0 || strings.TrimSpace(out) != "s3-orders-sink" {
		t.Errorf("sinks -e ^s3: exit %d %q", code, out)
	}
	for _, args := range [][]string{{"inspect", "status", "--state", "HAPPY"}, {"inspect", "connectors", "-e", "("}, {"inspect", "configs", "--type", "both"}} {
		if _, stderr, code := run(t, append(args, "--from", snapshotFile)...); code != 2 || !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d %q, want a usage error naming the flag", args, code, stderr)
		}
	}
}
