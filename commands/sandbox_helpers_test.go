package commands

import (
	"context"
	"testing"
	"time"

	"github.com/connectscope/connectscope/sandbox"
)

// testSandbox starts the sandbox's test cluster and returns it with a
// context that ends a minute from now; both close when the test ends.
func testSandbox(t *testing.T) (context.Context, *sandbox.Cluster) {
	t.Helper()
	return sandboxWith(t, sandbox.TestConfig())
}

// sandboxWith is testSandbox with its own settings.
func sandboxWith(t *testing.T, cfg sandbox.Config) (context.Context, *sandbox.Cluster) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	c, err := sandbox.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return ctx, c
}

// seedSandbox gives c three workers and four connectors of two tasks, and
// waits until the group is stable.
func seedSandbox(t *testing.T, ctx context.Context, c *sandbox.Cluster) {
	t.Helper()
	if err := c.AddWorkers(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if err := c.SeedConnectors(ctx, 4, 2); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
}
