package sandbox

import (
	"context"
	"time"
)

// The follow-up round after a revocation.
//
// A Connect worker told to give work up stops it and rejoins at once
// (WorkerCoordinator.onJoinComplete calls the herder's onRevoked, which
// stops the revoked work and asks to rejoin). On a real broker the other
// members have their assignments by then: each follower's SyncGroup waits
// at the coordinator until the leader's arrives, and the leader sends its
// own only after computing every assignment, so all of a generation's
// assignments go out together. In the sandbox the leader computes in
// microseconds and the members' requests share a loaded machine, so a
// follower's SyncGroup could reach kfake after a peer had already stopped
// its revoked work and rejoined: the follower got REBALANCE_IN_PROGRESS,
// rejoined still reporting the work it was about to give up, and the leader
// revoked it a second time (four rounds for a join that Kafka, and the
// plan, do in two). The gate restores Kafka's order: a worker whose
// assignment revoked work waits, before rejoining, until every member of
// that generation has its SyncGroup answered (or has left), heartbeating
// meanwhile, for at most a session timeout (worker.awaitPeers).

// syncGate is the cluster's record of who took part in each recent
// generation and who has its SyncGroup answer. Guarded by Cluster.mu.
type syncGate struct {
	members map[int32][]string        // generation -> member ids the leader assigned
	synced  map[int32]map[string]bool // generation -> member ids answered
	gone    map[string]bool           // member ids of workers that stopped or crashed
	changed chan struct{}             // closed and replaced at every change
}

// gateGenerations is how many recent generations the gate remembers.
const gateGenerations = 8

func (g *syncGate) init() {
	if g.members == nil {
		g.members, g.synced, g.gone, g.changed = map[int32][]string{}, map[int32]map[string]bool{}, map[string]bool{}, make(chan struct{})
	}
}

func (g *syncGate) broadcast() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// noteRound records the members the leader of generation gen assigned.
func (c *Cluster) noteRound(gen int32, memberIDs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := &c.gate
	g.init()
	g.members[gen] = memberIDs
	for old := range g.members {
		if old < gen-gateGenerations {
			delete(g.members, old)
			delete(g.synced, old)
		}
	}
	g.broadcast()
}

// noteSynced records that a member's SyncGroup for gen was answered,
// whatever the answer.
func (c *Cluster) noteSynced(gen int32, memberID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := &c.gate
	g.init()
	if g.synced[gen] == nil {
		g.synced[gen] = map[string]bool{}
	}
	g.synced[gen][memberID] = true
	g.broadcast()
}

// noteGone records that a member's worker stopped or crashed: it will never
// sync again.
func (c *Cluster) noteGone(memberID string) {
	if memberID == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	g := &c.gate
	g.init()
	g.gone[memberID] = true
	g.broadcast()
}

// peersSynced reports whether every member of gen has its answer (an
// unknown generation counts as done: nothing to wait for), and the channel
// that is closed at the next change.
func (c *Cluster) peersSynced(gen int32) (bool, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := &c.gate
	g.init()
	for _, m := range g.members[gen] {
		if !g.synced[gen][m] && !g.gone[m] {
			return false, g.changed
		}
	}
	return true, g.changed
}

// waitPeersSynced waits until every member of gen has its SyncGroup answer,
// for at most max; it reports whether they all had.
func (c *Cluster) waitPeersSynced(ctx context.Context, gen int32, max time.Duration) bool {
	t := time.NewTimer(max)
	defer t.Stop()
	for {
		done, changed := c.peersSynced(gen)
		if done {
			return true
		}
		select {
		case <-changed:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// syncDelay is how long a worker holds its SyncGroup back (tests only).
func (c *Cluster) syncDelay(worker string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slowSync[worker]
}

// slowSyncOf makes a worker send its SyncGroup requests d late (tests only:
// a member slowed by a loaded machine).
func (c *Cluster) slowSyncOf(worker string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.slowSync == nil {
		c.slowSync = map[string]time.Duration{}
	}
	c.slowSync[worker] = d
}
