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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	c, err := sandbox.Start(ctx, sandbox.TestConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return ctx, c
}
