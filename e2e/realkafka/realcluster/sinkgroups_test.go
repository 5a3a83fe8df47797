//go:build e2e

package realcluster

import (
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A crashed worker's sink tasks leave their consumers in the sink
// connectors' consumer groups until the consumers' session.timeout.ms (45
// s by default) runs out, and a rebalance of such a group waits for them.
// A sink task that stops in that time (a clean stop, a revocation) cannot
// close its consumer while its JoinGroup is pending: the worker waits out
// task.shutdown.graceful.timeout.ms for it (2 s in these clusters) and
// sends its own LeaveGroup about 2 s after that. Seen in the clock
// matrix: the bounce and the slow roll, each right after a crash class,
// sent LeaveGroup 3.6 to 4.2 s after the stop where other clean stops
// took about 1.2 s. sinkGroupsSettled waits until no sink group still
// lists a departed task's consumer, so that each class starts from a
// settled cluster.

// sinkGroupsSettled waits (up to d) until every sink connector's consumer
// group is Stable (or Empty) and lists each task's consumer once; it logs
// and returns when d runs out.
func (c *cluster) sinkGroupsSettled(d time.Duration) {
	c.t.Helper()
	var sinks []string
	for _, p := range c.configured() {
		if name, ok := strings.CutPrefix(p, "c:"); ok && strings.HasPrefix(name, "sink-") {
			sinks = append(sinks, "connect-"+name)
		}
	}
	if len(sinks) == 0 {
		return
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.b.Bootstrap()))
	if err != nil {
		c.t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	start := time.Now()
	var last error
	for time.Since(start) < d {
		if last = sinkGroupsState(adm, c, sinks); last == nil {
			if waited := time.Since(start); waited > time.Second {
				c.t.Logf("sink groups settled after %.1f s", waited.Seconds())
			}
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	c.t.Logf("sink groups not settled after %s: %v", d, last)
}

// sinkGroupsState is nil when every group is settled, else what is not.
func sinkGroupsState(adm *kadm.Client, c *cluster, groups []string) error {
	described, err := adm.DescribeGroups(c.ctx(10*time.Second), groups...)
	if err != nil {
		return err
	}
	for _, g := range groups {
		dg, ok := described[g]
		if !ok {
			continue
		}
		if dg.Err != nil {
			return fmt.Errorf("%s: %v", g, dg.Err)
		}
		if dg.State != "Stable" && dg.State != "Empty" {
			return fmt.Errorf("%s is %s", g, dg.State)
		}
		seen := map[string]bool{}
		for _, m := range dg.Members {
			if seen[m.ClientID] {
				return fmt.Errorf("%s lists %s twice (a departed consumer)", g, m.ClientID)
			}
			seen[m.ClientID] = true
		}
	}
	return nil
}
