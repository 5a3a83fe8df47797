package sandbox

import (
	"context"
	"os"
	"testing"
	"time"
)

// startTest starts a sandbox with test timings, changed by the options
// given, and closes it when the test ends.
func startTest(t *testing.T, options ...func(*Config)) *Cluster {
	t.Helper()
	cfg := TestConfig()
	for _, o := range options {
		o(&cfg)
	}
	if testing.Verbose() {
		cfg.Log = os.Stderr
	}
	c, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func waitStable(t *testing.T, c *Cluster) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestWorkersShareConnectors(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := c.AddWorker(ctx, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []ConnectorSpec{{Name: "orders", Tasks: 3}, {Name: "files", Tasks: 2}, {Name: "audit-sink", Kind: KindSink, Tasks: 2}} {
		if err := c.AddConnector(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	waitStable(t, c)
	total := 0
	for _, w := range c.WorkerStates() {
		t.Logf("%s gen %d owns %v", w.Name, w.Generation, w.Owned)
		total += w.Owned.Len()
	}
	if total != 3+3+2+2 {
		t.Fatalf("workers own %d pieces, want 10", total)
	}
}
