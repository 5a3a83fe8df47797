//go:build e2e

package realcluster

import (
	"strings"
	"time"

	"github.com/connectscope/connectscope/internal/runbook"
)

// checkRunbook runs the README's runbook (examples/runbook) with the built
// binary against the real cluster: 0 when the cluster is healthy (its
// one-broker replication findings waived by the example waiver file), 1
// when the plan breaks a gate, 2 on a jq error.
func (c *cluster) checkRunbook() {
	c.t.Helper()
	start := time.Now()
	defer func() { c.t.Logf("runbook: three runs in %s", time.Since(start).Round(time.Second)) }()
	bin := runbook.Binary(c.t)
	env := []string{
		"CONNECTSCOPE_BOOTSTRAP_SERVER=" + c.b.Bootstrap(), "CONNECTSCOPE_GROUP=" + c.group,
		"CONNECTSCOPE_CONFIG_TOPIC=" + c.group + "-configs", "CONNECTSCOPE_OFFSET_TOPIC=" + c.group + "-offsets",
		"CONNECTSCOPE_STATUS_TOPIC=" + c.group + "-status", "CONNECTSCOPE_TIMEOUT=30s", "RESTART_TIME=30s",
	}
	out, stderr, code := runbook.Run(c.t, bin, append(env, "MAX_OUTAGE=30m", "MAX_MOVES=1000")...)
	if code != 0 || !strings.Contains(out, "restart in this order: ") || strings.Count(out, " tasks (") != 3 {
		c.t.Fatalf("runbook on a healthy cluster: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
	_, stderr, code = runbook.Run(c.t, bin, append(env, "MAX_OUTAGE=1s")...)
	if code != 1 || !strings.Contains(stderr, "exceeds --max-outage 1s") {
		c.t.Errorf("runbook beyond its outage gate: exit %d, stderr %s", code, stderr)
	}
	_, stderr, code = runbook.Run(c.t, bin, append(env, "REPORT=.rule +")...)
	if code != 2 || !strings.Contains(stderr, "runbook: check all failed with exit status 2") {
		c.t.Errorf("runbook with a jq error: exit %d, stderr %s", code, stderr)
	}
}
