package commands

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/connectscope/connectscope/sandbox"
)

// readmeWatchRe finds README commands that watch for a --duration.
var readmeWatchRe = regexp.MustCompile(`\bwatch\b.*--duration`)

// readmeWatch says whether a README command (args as readmeArgs rewrote
// them) is a watch that names its cluster with -b and shows no output:
// it only waits out its --duration, needs none of the walk-through's
// environment, and so runs in TestREADMEWatches, in parallel with the
// other tests, instead of in the walk-through, which runs alone.
func readmeWatch(cmd readmeCommand, args []string) bool {
	return readmeWatchRe.MatchString(cmd.text) && cmd.output == nil && hasFlag(args, "-b")
}

// readmeSandbox is the walk-through's cluster: three workers, a source and
// a sink connector, settled.
func readmeSandbox(t *testing.T) *sandbox.Cluster {
	t.Helper()
	ctx, c := testSandbox(t)
	for _, s := range []sandbox.ConnectorSpec{{Name: "orders-source", Tasks: 2}, {Name: "orders-sink", Kind: sandbox.KindSink, Tasks: 2}} {
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
	return c
}

// TestREADMEWatches runs the README's watch commands (readmeWatch) against
// the walk-through's cluster, each for readmeArgs' two seconds, and holds
// them to the walk-through's rule: exit 0 or 1.
func TestREADMEWatches(t *testing.T) {
	t.Parallel() // waits out --duration
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	c := readmeSandbox(t)
	tmp := t.TempDir()
	ran := 0
	for _, cmd := range parseREADME(string(readme)) {
		args := readmeArgs(cmd.args, c.Bootstrap(), tmp)
		if cmd.skip != "" || !readmeWatch(cmd, args) {
			continue
		}
		ran++
		start := time.Now()
		if _, stderr, code := run(t, args...); code > 1 {
			t.Errorf("README.md:%d: %s\nexit %d after %s: %s", cmd.line, cmd.text, code, time.Since(start).Round(time.Millisecond), stderr)
		}
	}
	t.Logf("%d README watch commands run", ran)
}
