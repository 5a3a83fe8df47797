package commands

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// freeze makes the cluster stop answering, as a broker process stopped with
// SIGSTOP does: connections stay open, every request waits. The test's end
// lets them go.
func freeze(t *testing.T, c interface {
	Control(func(kmsg.Request) (kmsg.Response, error, bool))
	KeepControl()
}) {
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	c.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		select {
		case <-release:
		case <-time.After(2 * time.Minute):
		}
		return nil, nil, false
	})
}

// watch against a broker that stops answering: one line and exit 3 once
// --timeout has passed since its last answer, and a summary that does not
// call the stale state current.
func TestWatchFrozenBroker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, timeout, duration string
		want                    string
	}{
		{"the timeout ends first", "2s", "60s", "timed out after 2s"},
		{"--duration ends first", "60s", "3s", "--duration ended; the summary's group state is the last one seen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := liveCluster(t)
			out := newFirstLineWriter()
			var errb bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- Main([]string{"connectscope", "-b", c.Bootstrap(), "--timeout", tc.timeout, "watch", "--duration", tc.duration, "--interval", "200ms"},
					Streams{In: strings.NewReader(""), Out: out, Err: &errb}, BuildInfo{Version: "v9.9.9-test"})
			}()
			select {
			case <-out.first:
			case <-time.After(10 * time.Second):
				t.Fatal("watch printed no event")
			}
			freeze(t, c)
			frozen := time.Now()
			var code int
			select {
			case code = <-done:
			case <-time.After(30 * time.Second): // a correctness bound: the promise is --timeout
				t.Fatal("watch did not end against a frozen broker")
			}
			t.Logf("ended %s after the freeze", time.Since(frozen))
			stderr := errb.String()
			if code != ExitInput || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and one line saying %q", code, stderr, ExitInput, tc.want)
			}
			if s := out.String(); !strings.Contains(s, "group at the end: unknown: the cluster has not answered since") || strings.Contains(s, "group at the end: Stable") {
				t.Errorf("the summary presents the stale state as current:\n%s", s)
			}
		})
	}
}
