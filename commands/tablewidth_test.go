package commands

import (
	"strings"
	"testing"
)

// Every table view, at COLUMNS=60, 100 and 200, keeps the values that name
// its rows whole: connector names, task ids, workers' HOST:PORT, rule ids
// and subjects (kubectl never cuts NAME). The names come from the view's
// own JSON form, so a view that starts cutting one fails here.
func TestTableViewsKeepNamesWhole(t *testing.T) {
	const after = "../examples/cluster-after.snapshot.json"
	views := []struct {
		args []string
		jq   string
	}{
		{[]string{"inspect", "connectors", "--from", snapshotFile}, `.connectors[].name`},
		{[]string{"inspect", "configs", "--from", snapshotFile}, `.connectors[].name, (.connectors[].tasks[].id)`},
		{[]string{"inspect", "status", "--from", snapshotFile}, `.connectors[].name, .tasks[].id`},
		{[]string{"inspect", "offsets", "--from", snapshotFile}, `.offsets[].connector`},
		{[]string{"inspect", "members", "--from", snapshotFile}, `.members[].worker`},
		{[]string{"inspect", "sinks", "--from", snapshotFile}, `.sinks[].connector, .sinks[].group`},
		{[]string{"inspect", "connector", "s3-orders-sink", "--from", snapshotFile}, `.tasks[].id`},
		{[]string{"inspect", "worker", "10.0.1.12:8083", "--from", snapshotFile}, `.worker, .tasks[].name, .connectors[].name`},
		{[]string{"diff", snapshotFile, after}, `.tasks[].id, .connectors[].name`},
		{[]string{"check", "all", "--from", snapshotFile}, `.findings[] | .rule, .subject`},
		{[]string{"check", "balance", "--from", snapshotFile}, `.findings[] | .rule, .subject`},
		{[]string{"check", "rules"}, `.rules[].id`},
	}
	for _, v := range views {
		names, stderr, code := run(t, append(v.args, "--jq", v.jq)...)
		if code > 1 || strings.TrimSpace(names) == "" {
			t.Fatalf("%v --jq %s: exit %d, %q: %s", v.args, v.jq, code, names, stderr)
		}
		for _, width := range []string{"60", "100", "200"} {
			t.Setenv("COLUMNS", width)
			out, stderr, code := run(t, v.args...)
			if code > 1 {
				t.Fatalf("%v: exit %d: %s", v.args, code, stderr)
			}
			fields := map[string]bool{}
			for _, f := range strings.Fields(out) {
				fields[f] = true
			}
			for _, name := range strings.Split(strings.TrimSpace(names), "\n") {
				if strings.Contains(name, " ") && strings.Contains(out, name) || fields[name] {
					continue
				}
				t.Errorf("COLUMNS=%s %v: %q is not whole:\n%s", width, v.args, name, out)
			}
		}
	}
}
