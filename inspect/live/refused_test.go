package live_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/live"
)

// A port nothing listens on is a mistake to report at once, not after the
// whole --timeout: when every bootstrap server refused, the read stops
// within a few seconds and says so.
func TestRefusedByEveryBootstrapServerIsQuick(t *testing.T) {
	t.Parallel()
	a, b := closedPort(t), closedPort(t)
	opts := live.Options{Conn: live.ConnOptions{Bootstrap: []string{a, b}, Timeout: 30 * time.Second}}
	start := time.Now()
	_, err := live.Read(context.Background(), opts)
	took := time.Since(start)
	if err == nil {
		t.Fatal("read succeeded")
	}
	msg := err.Error()
	if took > 5*time.Second {
		t.Errorf("took %s with --timeout 30s, want a few seconds", took.Round(time.Millisecond))
	}
	for _, want := range []string{"connection refused", a, b, "nothing listens there"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "gave up after 30s") {
		t.Errorf("error %q claims to have waited the whole timeout", msg)
	}
}
