package commands

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// Live, `inspect offsets --connector NAME` reads only the offsets topic
// first; a connector with no offsets there is looked up in the config and
// status topics: a sink is one line saying what it is and which view shows
// it (exit 4), and a name no topic holds is not found. Likewise a view of
// one topic reads the config topic for a --type filter.
func TestLiveOffsetsOfConnectorWithoutOffsets(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "offsets", "--connector", "snk", "-o", "json")
	if code != ExitNotFound || stdout != "" || !strings.Contains(stderr, "snk is a sink connector") || !strings.Contains(stderr, "inspect sinks --connector snk") {
		t.Fatalf("sink: exit %d, stdout %q, stderr %q; want %d and the line naming inspect sinks", code, stdout, stderr, ExitNotFound)
	}
	_, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "offsets", "--connector", "nosuch", "-o", "json")
	if code != ExitNotFound || !strings.Contains(stderr, `connector "nosuch" not found`) {
		t.Errorf("unknown connector: exit %d, stderr %q; want %d and a not-found line", code, stderr, ExitNotFound)
	}
	// The status view reads the status topic only; a type filter reads the
	// config topic for the connectors' types.
	stdout, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "status", "--type", "sink", "--jq", `[.connectors[].name] | join(",")`)
	if code != 0 || strings.TrimSpace(stdout) != "snk" {
		t.Errorf("status --type sink: exit %d, stdout %q, stderr %q; want snk alone", code, stdout, stderr)
	}
}
