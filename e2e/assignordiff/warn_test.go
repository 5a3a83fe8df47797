//go:build e2e

package assignordiff

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// TestVersionWarning: every verified line replays silently; a line newer than
// the newest verified one still warns.
func TestVersionWarning(t *testing.T) {
	file := filepath.Join(vectors.Dir(t, "assignor/public"), "ops-connector-replaced.scenario.json")
	for version, warns := range map[string]bool{"2.3.0": false, "3.9.2": false, "4.0": false, "4.2.1": false, "4.4.0": false, "4.5.0": true, "5.0": true} {
		_, stderr, err := replayOurs(file, version, "17")
		if err != nil {
			t.Fatalf("--kafka-version %s: %v\n%s", version, err, stderr)
		}
		if got := strings.Contains(string(stderr), "newer than the assignors"); got != warns {
			t.Errorf("--kafka-version %s: warning %v, want %v (stderr %q)", version, got, warns, stderr)
		}
	}
}
