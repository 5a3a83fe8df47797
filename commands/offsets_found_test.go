package commands

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// Live, `inspect offsets --connector NAME` reads only the offsets topic
// first; a connector with no offsets there (a sink, or a source whose
// offsets were reset) is still found through the config and status topics,
// and only a name no topic holds is not found.
func TestLiveOffsetsOfConnectorWithoutOffsets(t *testing.T) {
	c := kafkatest.New(t)
	c.SeedConnect(t)
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "offsets", "--connector", "snk", "-o", "json")
	if code != 0 {
		t.Fatalf("sink without offsets: exit %d, want 0: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"offsets": []`) {
		t.Errorf("sink without offsets: want an empty offsets list, got %s", stdout)
	}
	_, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "offsets", "--connector", "nosuch", "-o", "json")
	if code != ExitNotFound || !strings.Contains(stderr, `connector "nosuch" not found`) {
		t.Errorf("unknown connector: exit %d, stderr %q; want %d and a not-found line", code, stderr, ExitNotFound)
	}
}
