package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/sandbox"
)

const snapshotFile = "../examples/cluster.snapshot.json"

// -o jsonl --jq runs the expression on each line, in inspect and check as in watch.
func TestJSONLJQPerLine(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"inspect", "status", "--from", snapshotFile, "-o", "jsonl", "--jq", "select(.kind==\"connector\") | .name"},
		{"check", "all", "--from", snapshotFile, "--fail-on", "error", "-o", "jsonl", "--jq", ".rule"},
	} {
		out, stderr, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 || strings.ContainsAny(out, "{[") || strings.Contains(out, "null") {
			t.Errorf("%v: want one value per jsonl line, got %q", args, out)
		}
	}
}

// Flags work after positional arguments, as the README promises.
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	out, stderr, code := run(t, "check", "explain", "D1", "-o", "json")
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("check explain D1 -o json: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = run(t, "completion", "bash", "--help")
	if code != 0 || !strings.Contains(out, "USAGE") {
		t.Errorf("completion bash --help: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = run(t, "plan", "replay", "../plan/testdata/nosuch.json", "--output=json", "--timeout", "5s")
	if code != ExitInput {
		t.Errorf("plan replay FILE --output=json --timeout 5s: exit %d (want %d, file missing), stderr %q", code, ExitInput, stderr)
	}
	// After --, everything is an argument.
	_, stderr, code = run(t, "check", "explain", "--", "-o")
	if code != ExitUsage || !strings.Contains(stderr, `"-o"`) {
		t.Errorf("check explain -- -o: exit %d, stderr %q", code, stderr)
	}
}

// A file in which nothing decodes is not an empty cluster: exit 3 with one
// line that says what the file looks like, in every output format.
func TestFromFileThatIsNeitherDumpNorSnapshot(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"table", "jsonl"} {
		out, stderr, code := run(t, "inspect", "connectors", "--from", "../README.md", "-o", o)
		if code != ExitInput || out != "" {
			t.Errorf("-o %s: exit %d, stdout %q; want exit %d and nothing on stdout", o, code, out, ExitInput)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "README.md") || !strings.Contains(stderr, "looks like text") {
			t.Errorf("-o %s: stderr %q, want one line naming the file and what it looks like", o, stderr)
		}
	}
}

// Asking for something by name that is not there fails like kubectl's
// NotFound: one line on stderr, exit 4.
func TestNotFoundExitsNonZero(t *testing.T) {
	t.Parallel()
	for _, view := range []string{"configs", "status", "offsets", "connectors", "sinks"} {
		out, stderr, code := run(t, "inspect", view, "--from", snapshotFile, "--connector", "nosuch")
		if code != ExitNotFound || out != "" || !strings.Contains(stderr, `"nosuch"`) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("inspect %s --connector nosuch: exit %d, stdout %q, stderr %q", view, code, out, stderr)
		}
	}
	// The name exists: exit 0, even in a view with nothing of it to show.
	if _, stderr, code := run(t, "inspect", "configs", "--from", snapshotFile, "--connector", "debezium-inventory"); code != 0 {
		t.Errorf("inspect configs --connector debezium-inventory: exit %d: %s", code, stderr)
	}
	// A connector of the other kind says which view fits it (exit 4).
	if _, stderr, code := run(t, "inspect", "offsets", "--from", snapshotFile, "--connector", "es-orders-sink"); code != ExitNotFound || !strings.Contains(stderr, "is a sink connector") {
		t.Errorf("inspect offsets of a sink: exit %d: %s", code, stderr)
	}
}

func TestLiveGroupNotFound(t *testing.T) {
	t.Parallel() // waits on the network mostly
	c := liveCluster(t)
	out, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "-g", "wrong-group", "inspect", "members")
	if code != ExitNotFound || out != "" || !strings.Contains(stderr, `"wrong-group"`) {
		t.Errorf("-g wrong-group inspect members: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Worker files in a live sandbox: check all reads the cluster from the
// files' bootstrap.servers; files relying on Connect's default listener are
// matched to their members; plan leave takes the sandbox's worker name.
func TestWorkerFilesAgainstSandbox(t *testing.T) {
	t.Parallel()
	ctx, c := testSandbox(t)
	var names []string
	for range 2 {
		name, err := c.AddWorker(ctx, "", "sessioned")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := c.AddConnector(ctx, sandbox.ConnectorSpec{Name: "orders", Tasks: 4}); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, n := range names {
		// No rest.advertised.*, no listeners: Connect's default http://:8083.
		path := filepath.Join(dir, n+".properties")
		text := "bootstrap.servers=" + c.Bootstrap() + "\ngroup.id=connect-cluster\nconfig.storage.topic=connect-configs\noffset.storage.topic=connect-offsets\nstatus.storage.topic=connect-status\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, "--worker-config", path)
	}
	out, stderr, code := run(t, append([]string{"check", "all", "--kafka-version", "3.9.0", "--fail-on", "error", "-o", "json",
		"--jq", `([.checks[] | select(.ran) | .check] | join(",")), ([.findings[] | select(.rule=="P13")] | length)`}, files...)...)
	if code != 0 {
		t.Fatalf("check all: exit %d: %s", code, stderr)
	}
	if got := strings.Fields(out); len(got) != 2 || got[0] != "timeouts,upgrade,topics,balance" || got[1] != "0" {
		t.Errorf("check all with worker files: ran / P13 count %q, want timeouts,upgrade,topics,balance and 0", out)
	}
	for _, name := range []string{names[1], names[1] + ":8083", "http://" + names[1] + ":8083/"} {
		if _, stderr, code := run(t, "-b", c.Bootstrap(), "plan", "leave", "--worker", name, "-o", "json"); code != 0 {
			t.Errorf("plan leave --worker %s: exit %d: %s", name, code, stderr)
		}
	}
}

// Default tables fit COLUMNS; -o wide and -o json keep every value.
func TestTablesFitColumns(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	for _, args := range [][]string{{"inspect", "members"}, {"inspect", "connectors"}, {"plan", "leave", "--worker", "10.0.1.12:8083"}} {
		out, stderr, code := run(t, append(args, "--from", snapshotFile)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%v: line of %d columns with COLUMNS=80: %q", args, n, line)
			}
		}
	}
	wide, _, _ := run(t, "inspect", "members", "--from", snapshotFile, "-o", "wide")
	if !strings.Contains(wide, "connect-10.0.1.11:8083-3f6b2a1e-8c4d-4a57-9a0e-2b1c5d7e9f10") {
		t.Errorf("-o wide shortened a member id:\n%s", wide)
	}
	rows, _, _ := run(t, "inspect", "connectors", "--from", snapshotFile, "--no-headers")
	if strings.Contains(rows, "NAME") || strings.Contains(rows, "records read") || len(strings.Split(strings.TrimSpace(rows), "\n")) != 6 {
		t.Errorf("--no-headers: want 6 rows only:\n%s", rows)
	}
}

// A crashed worker's tasks held for the scheduled delay: inspect connectors
// counts the pieces no live worker owns, with the delay the leader announced.
func TestConnectorsShowHeldWork(t *testing.T) {
	t.Parallel() // waits on the network mostly
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := sandbox.TestConfig()
	cfg.ScheduledRebalanceMaxDelay = 40 * time.Second
	c, err := sandbox.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.AddWorkers(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := c.AddConnector(ctx, sandbox.ConnectorSpec{Name: "orders", Tasks: 4}); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Name      string `json:"name"`
		Unowned   *int   `json:"unowned"`
		HeldForMs *int64 `json:"held_for_ms"`
	}
	read := func() summary {
		out, stderr, code := run(t, "-b", c.Bootstrap(), "inspect", "connectors", "-o", "jsonl")
		if code != 0 {
			t.Fatalf("inspect connectors: exit %d: %s", code, stderr)
		}
		var s summary
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &s); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		return s
	}
	if s := read(); s.Unowned == nil || *s.Unowned != 0 || s.HeldForMs != nil {
		t.Fatalf("stable group: unowned %v, held %v; want 0 and null", ptrText(s.Unowned), ptrText(s.HeldForMs))
	}
	// Kill a worker that is not the leader: a new leader has no previous
	// assignment to tell lost work from, and reassigns it at once.
	lead, stderr, code := run(t, "-b", c.Bootstrap(), "inspect", "members", "-o", "json", "--jq", ".leader")
	if code != 0 {
		t.Fatalf("inspect members: exit %d: %s", code, stderr)
	}
	leader := c.WorkerOfMember(strings.TrimSpace(lead))
	victim := ""
	for _, w := range c.Workers() {
		if w != leader {
			victim = w
		}
	}
	if err := c.KillWorker(victim); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := read()
		if s.Unowned != nil && *s.Unowned > 0 {
			if s.HeldForMs == nil || *s.HeldForMs <= 0 || *s.HeldForMs > 40000 {
				t.Errorf("held work without the delay: held_for_ms %v", ptrText(s.HeldForMs))
			}
			out, _, _ := run(t, "-b", c.Bootstrap(), "inspect", "connectors")
			if !strings.Contains(out, "UNOWNED") || !strings.Contains(out, "held") {
				t.Errorf("table does not show the held work:\n%s", out)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no unowned pieces 15s after killing a worker: %+v", s)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func ptrText[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
