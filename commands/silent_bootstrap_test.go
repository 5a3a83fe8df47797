package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// A bootstrap server that accepts connections and never answers must not
// fail live commands when healthy servers are listed beside it: like Java
// clients, connectscope moves on to the others.
func TestSilentBootstrapServerBesideHealthyOnes(t *testing.T) {
	t.Parallel() // waits on the network mostly
	c := liveCluster(t)
	silent := kafkatest.SilentListener(t)
	lists := []string{
		silent + "," + c.Bootstrap(),
		c.Bootstrap() + "," + silent,
		silent + "," + kafkatest.SilentListener(t) + "," + c.Bootstrap(),
	}
	if testing.Short() {
		lists = lists[:1] // the silent server first: the case that waits
	}
	for i, servers := range lists {
		for _, cmd := range [][]string{{"inspect", "connectors"}, {"inspect", "members"}} {
			t.Run(fmt.Sprintf("list %d %s", i+1, strings.Join(cmd, " ")), func(t *testing.T) {
				t.Parallel() // each waits on the silent server on its own
				// A client that waited on the silent server for the whole
				// --timeout would fail here: the budget is spent before the
				// healthy server is asked.
				start := time.Now()
				out, stderr, code := run(t, append(cmd, "-b", servers, "--timeout", "6s", "-o", "json")...)
				took := time.Since(start)
				if code != ExitOK {
					t.Fatalf("-b %s %v: exit %d after %s: %s", servers, cmd, code, took, stderr)
				}
				if !strings.Contains(out, `"src"`) && !strings.Contains(out, "10.0.0.1") {
					t.Errorf("-b %s %v: output lacks the cluster's content:\n%s", servers, cmd, out)
				}
			})
		}
	}
}
