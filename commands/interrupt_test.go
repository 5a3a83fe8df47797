package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// connectscopeBinary builds connectscope into a temporary directory, so
// that signals reach a real process.
func connectscopeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "connectscope")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/connectscope")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building connectscope: %v: %s", err, out)
	}
	return bin
}

// refusedAddr is a loopback port nothing listens on.
func refusedAddr(t *testing.T) string { return kafkatest.RefusedAddr(t) }

// stallingBroker is a kfake cluster that answers ApiVersions but holds every
// Metadata request until the test ends.
func stallingBroker(t *testing.T) string {
	t.Helper()
	c := kafkatest.New(t)
	release := make(chan struct{})
	var once sync.Once
	// Cleanups run last-in first-out: release the held requests before
	// the cluster (registered by New) is closed.
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	c.ControlKey(int16(kmsg.Metadata), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		select {
		case <-release:
		case <-time.After(2 * time.Minute):
		}
		return nil, nil, false
	})
	return c.Bootstrap()
}

// TestSignalsStopEveryKindOfCommand sends a real SIGINT or SIGTERM to a
// running connectscope and wants it to stop promptly with exit 130 and
// "interrupted": live reads against a broker that is refused, hangs or
// stalls mid-protocol, and an offline plan that would run for minutes.
func TestSignalsStopEveryKindOfCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := connectscopeBinary(t)
	cases := []struct {
		name string
		args func(t *testing.T) []string
		sig  syscall.Signal
	}{
		{"refused port, connectors, SIGINT", func(t *testing.T) []string {
			return []string{"inspect", "connectors", "-b", refusedAddr(t)}
		}, syscall.SIGINT},
		{"refused port, watch, SIGTERM", func(t *testing.T) []string {
			return []string{"watch", "-b", refusedAddr(t)}
		}, syscall.SIGTERM},
		{"silent listener, members, SIGTERM", func(t *testing.T) []string {
			return []string{"inspect", "members", "-b", kafkatest.SilentListener(t)}
		}, syscall.SIGTERM},
		{"stalling kfake, snapshot, SIGINT", func(t *testing.T) []string {
			return []string{"snapshot", "--file", filepath.Join(t.TempDir(), "s.json"), "-b", stallingBroker(t)}
		}, syscall.SIGINT},
		{"stalling kfake, check topics, SIGTERM", func(t *testing.T) []string {
			return []string{"check", "topics", "-b", stallingBroker(t)}
		}, syscall.SIGTERM},
		{"huge synthetic plan, SIGINT", func(t *testing.T) []string {
			return []string{"plan", "join", "--add", "1", "--synthetic", longSyntheticPlan, "-o", "json"}
		}, syscall.SIGINT},
		{"long rolling restart, SIGTERM", func(t *testing.T) []string {
			return []string{"plan", "rolling-restart", "--restart-time", "30s", "--synthetic", "workers=300,connectors=12000", "-o", "json"}
		}, syscall.SIGTERM},
		{"long scenario replay, SIGINT", func(t *testing.T) []string {
			return []string{"plan", "replay", longScenario(t), "-o", "json"}
		}, syscall.SIGINT},
		{"workers that never answer, inspect workers, SIGINT", func(t *testing.T) []string {
			return []string{"inspect", "workers", "--from", hangingWorkersSnapshot(t), "--rest-timeout", "1m", "--rest-total-timeout", "1m"}
		}, syscall.SIGINT},
		{"endless kcat dump, SIGINT", func(t *testing.T) []string {
			return []string{"inspect", "connectors", "--from", kafkatest.EndlessDump(t, false, false)}
		}, syscall.SIGINT},
		{"endless gzip dump, SIGTERM", func(t *testing.T) []string {
			return []string{"inspect", "status", "--from", kafkatest.EndlessDump(t, true, false)}
		}, syscall.SIGTERM},
		{"endless line inside gzip, SIGINT", func(t *testing.T) []string {
			return []string{"inspect", "connectors", "--from", kafkatest.EndlessDump(t, true, true)}
		}, syscall.SIGINT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.args(t)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			// Long enough to be deep in the work (connected, retrying or
			// planning), far shorter than the 30 s timeout or the plan.
			select {
			case err := <-waited:
				t.Fatalf("finished before the signal (%v): %s", err, stderr.String())
			case <-time.After(1500 * time.Millisecond):
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := <-waited
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
				t.Fatalf("exit: %v, want status %d; stderr: %s", err, ExitInterrupted, stderr.String())
			}
			// A correctness bound, not a benchmark: a second is the
			// promise, the slack is for a loaded machine.
			t.Logf("stopped %s after the signal", took)
			if took > 3*time.Second {
				t.Errorf("took %s after the signal to stop, want about a second at most", took)
			}
			if got := strings.TrimSpace(stderr.String()); got != "connectscope: interrupted" {
				t.Errorf("stderr = %q, want the one line \"connectscope: interrupted\"", got)
			}
		})
	}
}

// longSyntheticPlan is within the plan bounds but takes many seconds.
const longSyntheticPlan = "workers=10000,connectors=100000"

// longScenario writes a scenario within the bounds that replays for many
// seconds: 2,000 workers, 20,000 tasks, 300 rebalances.
func longScenario(t *testing.T) string {
	// Near the plan bounds on purpose: 99,000 workers and 200,000 tasks,
	// with churn between rounds, so every round is real work (~0.3 s or more
	// each on a fast machine) and the replay is still computing when the
	// signal comes, however fast the machine.
	var b strings.Builder
	b.WriteString(`{"scenario": 1, "max_delay_ms": 0, "steps": [{"connectors": {`)
	for i := 0; i < 20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"c%02d": 10000`, i)
	}
	b.WriteString(`}}, {"join": [`)
	for i := 0; i < 99000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"w%05d"`, i)
	}
	b.WriteString(`]}`)
	for r := 0; r < 12; r++ {
		b.WriteString(`, {"rebalance": {}}, {"leave": [`)
		for i := r * 1000; i < (r+1)*1000; i++ {
			if i > r*1000 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"w%05d"`, i)
		}
		b.WriteString(`]}, {"join": [`)
		for i := 0; i < 1000; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"x%d-%04d"`, r, i)
		}
		b.WriteString(`]}`)
	}
	b.WriteString("]}\n")
	path := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// hangingWorkersSnapshot is a snapshot whose group's two members advertise
// REST URLs that accept connections and never answer.
func hangingWorkersSnapshot(t *testing.T) string {
	t.Helper()
	srv := kafkatest.HangingHTTP(t)
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Group: &inspect.GroupDescription{Group: "connect-cluster",
		State: inspect.GroupStable, ProtocolType: "connect", Protocol: "sessioned"}}
	for i, id := range []string{"m1", "m2"} {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: fmt.Sprintf("%s/w%d/", srv.URL, i)})
		if err != nil {
			t.Fatal(err)
		}
		ds.Group.Members = append(ds.Group.Members, inspect.GroupMember{MemberID: id, Metadata: meta})
	}
	return writeSnapshot(t, ds, "hanging.snapshot.json")
}

// writeSnapshot writes ds as a snapshot file named name in a temporary folder.
func writeSnapshot(t *testing.T, ds *inspect.Dataset, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := source.WriteSnapshot(f, ds); err != nil {
		t.Fatal(err)
	}
	return path
}
