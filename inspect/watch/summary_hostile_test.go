package watch_test

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/watch"
)

// The summary watch prints at the end is a terminal's text: a name meant
// to flood the screen (5,000 characters) costs one line of at most a few
// hundred characters, and controls are escaped.
func TestWatchSummaryShortensLongNames(t *testing.T) {
	long := strings.Repeat("x", 5000) + "\x1b]0;t\x07"
	s := watch.Summary{
		TaskNotRunningMs: 1000,
		TasksNotRunning:  []watch.TaskDowntime{{Task: long + "-0", NotRunningMs: 1000, ByStateMs: map[string]int64{"FAILED": 1000}}},
		ConnectorsHeld:   []watch.HeldConnector{{Connector: long, HeldMs: 500}},
		GroupStateAtEnd:  "Stable\x1b[2J",
	}
	for _, line := range strings.Split(s.Text(), "\n") {
		if len(line) > 400 || strings.ContainsRune(line, 0x1b) {
			t.Errorf("line of %d bytes (or with ESC): %.120q", len(line), line)
		}
	}
}
