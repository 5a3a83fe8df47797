package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands"
	"github.com/connectscope/connectscope/sandbox"
)

// kcatPath finds kcat. CI installs it (Debian package kcat), so there a
// missing kcat fails the test instead of skipping it.
func kcatPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"kcat", "kafkacat"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("kcat is not installed; CI must install it (apt-get install -y kcat)")
	}
	t.Skip("kcat is not installed (apt-get install -y kcat); CI runs this test")
	return ""
}

func runKcat(t *testing.T, kcat string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, kcat, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kcat %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// startInterop starts a sandbox with a mix of connectors, a paused one, a
// removed one and a failed task, and waits until it is stable.
func startInterop(t *testing.T) *sandbox.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := sandbox.Start(ctx, sandbox.TestConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, s := range []sandbox.ConnectorSpec{
		{Name: "orders-cdc", Tasks: 3},
		{Name: "payments-cdc", Tasks: 2},
		{Name: "old-cdc", Tasks: 1},
		{Name: "search-es", Kind: sandbox.KindSink, Tasks: 2},
	} {
		if err := c.AddConnector(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.AddWorkers(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	for _, step := range []error{
		c.PauseConnector(ctx, "payments-cdc"),
		c.RemoveConnector(ctx, "old-cdc"),
		c.FailTask(ctx, "orders-cdc", 2),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// kcat lists the sandbox's broker and its internal topics with Connect's
// partition counts.
func TestKcatListsSandbox(t *testing.T) {
	t.Parallel() // owns its cluster
	kcat := kcatPath(t)
	c := startInterop(t)
	var md struct {
		Brokers []struct {
			Name string `json:"name"`
		} `json:"brokers"`
		Topics []struct {
			Topic      string            `json:"topic"`
			Partitions []json.RawMessage `json:"partitions"`
		} `json:"topics"`
	}
	out := runKcat(t, kcat, "-L", "-J", "-b", c.Bootstrap())
	if err := json.Unmarshal(out, &md); err != nil {
		t.Fatalf("kcat -L -J output: %v\n%s", err, out)
	}
	if len(md.Brokers) != 1 || md.Brokers[0].Name != c.Bootstrap() {
		t.Errorf("kcat sees brokers %+v, want one at %s", md.Brokers, c.Bootstrap())
	}
	parts := map[string]int{}
	for _, tp := range md.Topics {
		parts[tp.Topic] = len(tp.Partitions)
	}
	for topic, want := range map[string]int{"connect-configs": 1, "connect-offsets": 25, "connect-status": 5, "search-es-data": 4} {
		if parts[topic] != want {
			t.Errorf("kcat -L: topic %s has %d partitions, want %d (topics %v)", topic, parts[topic], want, parts)
		}
	}
	plain := string(runKcat(t, kcat, "-L", "-b", c.Bootstrap()))
	if !strings.Contains(plain, `topic "connect-status" with 5 partitions`) {
		t.Errorf("kcat -L does not list connect-status with 5 partitions:\n%s", plain)
	}
}

// A kcat -C -J dump of the internal topics, read with --from, gives what
// the live read gives, for every inspect view of the topics.
func TestKcatDumpMatchesLiveRead(t *testing.T) {
	t.Parallel() // owns its cluster
	kcat := kcatPath(t)
	c := startInterop(t)
	var dump bytes.Buffer
	for _, topic := range []string{"connect-configs", "connect-offsets", "connect-status"} {
		dump.Write(runKcat(t, kcat, "-C", "-J", "-e", "-q", "-X", "fetch.wait.max.ms=10", "-b", c.Bootstrap(), "-t", topic))
	}
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(path, dump.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, view := range []string{"configs", "status", "offsets", "connectors"} {
		live := runCLI(t, "-b", c.Bootstrap(), "-o", "json", "inspect", view)
		file := runCLI(t, "--from", path, "-o", "json", "inspect", view)
		if !bytes.Contains(live, []byte(`"orders-cdc`)) {
			t.Errorf("inspect %s read live shows no orders-cdc: %s", view, live)
		}
		if view == "connectors" {
			live = withoutGroupFields(t, live)
		}
		if !jsonEqual(t, live, file) {
			t.Errorf("inspect %s: live and --from differ\nlive: %s\nfile: %s", view, live, file)
		}
	}
}

// withoutGroupFields checks that a live connectors view of the settled
// sandbox has no unowned piece, then nulls the fields that come from the
// group (a kcat dump holds topic records only, so from a file they are null).
func withoutGroupFields(t *testing.T, live []byte) []byte {
	t.Helper()
	var v struct {
		Connectors []map[string]any `json:"connectors"`
	}
	var whole map[string]any
	if err := json.Unmarshal(live, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, live)
	}
	if err := json.Unmarshal(live, &whole); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, live)
	}
	for _, c := range v.Connectors {
		if n, ok := c["unowned"].(float64); !ok || n != 0 {
			t.Errorf("live inspect connectors: %v has unowned %v in a settled cluster, want 0", c["name"], c["unowned"])
		}
		c["unowned"], c["held_for_ms"] = nil, nil
	}
	conns := make([]any, len(v.Connectors))
	for i, c := range v.Connectors {
		conns[i] = c
	}
	whole["connectors"] = conns
	out, err := json.Marshal(whole)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func runCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Main(append([]string{"connectscope"}, args...), commands.Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}, commands.BuildInfo{Version: "test"})
	if code != commands.ExitOK {
		t.Fatalf("connectscope %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
