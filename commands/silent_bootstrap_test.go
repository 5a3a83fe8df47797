package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// A bootstrap server that accepts connections and never answers must not
// fail live commands when healthy servers are listed beside it: like Java
// clients, connectscope moves on to the others.
func TestSilentBootstrapServerBesideHealthyOnes(t *testing.T) {
	c := liveCluster(t)
	silent := kafkatest.SilentListener(t)
	for _, servers := range []string{
		silent + "," + c.Bootstrap(),
		c.Bootstrap() + "," + silent,
		silent + "," + kafkatest.SilentListener(t) + "," + c.Bootstrap(),
	} {
		for _, cmd := range [][]string{{"inspect", "connectors"}, {"inspect", "members"}} {
			start := time.Now()
			out, stderr, code := run(t, append(cmd, "-b", servers, "--timeout", "30s", "-o", "json")...)
			took := time.Since(start)
			if code != ExitOK {
				t.Fatalf("-b %s %v: exit %d after %s: %s", servers, cmd, code, took, stderr)
			}
			if !strings.Contains(out, `"src"`) && !strings.Contains(out, "10.0.0.1") {
				t.Errorf("-b %s %v: output lacks the cluster's content:\n%s", servers, cmd, out)
			}
			// Well inside --timeout: the silent server costs a short wait, not the whole budget.
			if took > 15*time.Second {
				t.Errorf("-b %s %v: took %s", servers, cmd, took)
			}
		}
	}
}
