package sandbox

import (
	"context"
	"fmt"
	"time"
)

// WaitStable waits until nothing is in motion: the Connect group is Stable
// with exactly the running workers as members, every worker has completed
// the group's current generation and has no rejoin requested or scheduled,
// and every sink connector's consumer group is Stable with one member per
// consuming task and a committed offset on every partition.
func (c *Cluster) WaitStable(ctx context.Context) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	// Quiet for a few ticks in a row, so a rebalance that is about to start
	// (a worker's heartbeat has not yet seen it) is not missed.
	quiet := 0
	for {
		why := c.unstableReason()
		if why == "" {
			quiet++
			if quiet >= 3 {
				return nil
			}
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the sandbox to settle: %s: %w", why, ctx.Err())
		case <-tick.C:
		}
	}
}

// unstableReason says why the cluster is not stable yet ("" when it is).
func (c *Cluster) unstableReason() string {
	ws := c.liveWorkers()
	g := c.kf.GroupInfo(c.cfg.GroupID)
	if len(ws) == 0 {
		if g != nil && len(g.Members) > 0 {
			return fmt.Sprintf("group still has %d members", len(g.Members))
		}
		return ""
	}
	if g == nil {
		return "the Connect group does not exist yet"
	}
	if g.State != "Stable" {
		return "the Connect group is " + g.State
	}
	members := map[string]bool{}
	for _, m := range g.Members {
		members[m.MemberID] = true
	}
	if len(members) != len(ws) {
		return fmt.Sprintf("the group has %d members, %d workers run", len(members), len(ws))
	}
	consumers, active := map[string]int{}, map[string]bool{}
	for _, w := range ws {
		s := w.snapshot()
		switch {
		case !members[s.MemberID]:
			return "worker " + w.name + " is not a member"
		case s.Joining || w.pendingInbox():
			return "worker " + w.name + " is joining"
		case s.Generation != g.Epoch:
			return fmt.Sprintf("worker %s is at generation %d, the group at %d", w.name, s.Generation, g.Epoch)
		case s.RejoinPending:
			return "worker " + w.name + " has a scheduled rebalance pending"
		}
		counts, committing := w.consumerCounts()
		for conn, n := range counts {
			consumers[conn] += n
		}
		for conn := range committing {
			active[conn] = true
		}
	}
	for conn, n := range consumers {
		sg := c.kf.GroupInfo(SinkGroup(conn))
		if sg == nil || sg.State != "Stable" || len(sg.Members) != n {
			return "sink group " + SinkGroup(conn) + " is rebalancing"
		}
		cs := c.connectorCopy(conn)
		if cs == nil || !active[conn] {
			continue
		}
		if len(sg.Commits[cs.topic]) < sinkTopicPartitions {
			return "sink group " + SinkGroup(conn) + " has not committed yet"
		}
	}
	return ""
}

// consumerCounts counts this worker's sink consumers per connector and
// names the connectors whose consumers here commit (RUNNING).
func (w *worker) consumerCounts() (map[string]int, map[string]bool) {
	w.snapMu.Lock()
	defer w.snapMu.Unlock()
	return w.consumers, w.activeSinks
}
