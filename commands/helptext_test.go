package commands

import (
	"regexp"
	"strings"
	"testing"
)

// What help says a command exits with is what it exits with: inspect
// connector NAME for a name the input does not know.
func TestConnectorHelpSaysItsExitStatus(t *testing.T) {
	t.Parallel()
	help, _, _ := run(t, "inspect", "connector", "--help")
	_, _, code := run(t, "inspect", "connector", "no-such-connector", "--from", snapshotFile)
	if code != 4 {
		t.Fatalf("missing connector: exit %d, want 4 (not found)", code)
	}
	if strings.Contains(help, "exits 1") || !strings.Contains(help, "exit 4") {
		t.Errorf("inspect connector --help does not say exit 4:\n%s", help)
	}
}

// goIdentifier is a lowerCamelCase word: a Go name, not English.
var goIdentifier = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b`)

// Messages are written for operators: no Go identifier leaks into them
// (watch --from once said "watch follows a liveOpts cluster").
func TestWatchFromMessageIsPlain(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "watch", "--from", snapshotFile)
	if code != 2 {
		t.Errorf("watch --from: exit %d, want 2", code)
	}
	if w := goIdentifier.FindString(stderr); w != "" || !strings.Contains(stderr, "live cluster") {
		t.Errorf("watch --from says %q (Go name %q)", stderr, w)
	}
}

// A connector of the other kind gets one line naming what it is and the
// view that fits, and exit 4, instead of empty tables and exit 0.
func TestWrongKindOfConnector(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", "sinks", "--connector", "jdbc-orders-source"}, "jdbc-orders-source is a source connector: inspect sinks shows sink connectors' consumer groups; its progress is its offsets, in `connectscope inspect offsets --connector jdbc-orders-source`"},
		{[]string{"inspect", "offsets", "--connector", "s3-orders-sink"}, "s3-orders-sink is a sink connector: inspect offsets shows source connectors' offsets; its progress is its consumer group's commits, in `connectscope inspect sinks --connector s3-orders-sink`"},
	} {
		out, stderr, code := run(t, append(tc.args, "--from", snapshotFile)...)
		if code != 4 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 4 and the line %q", tc.args, code, out, stderr, tc.want)
		}
	}
	// The right kind still works.
	if _, stderr, code := run(t, "inspect", "sinks", "--connector", "s3-orders-sink", "--from", snapshotFile); code != 0 {
		t.Errorf("inspect sinks --connector s3-orders-sink: exit %d: %s", code, stderr)
	}
}
