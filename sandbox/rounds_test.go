package sandbox

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/plan/assignor"
)

// The rounds tests hold the sandbox to the plan's rounds, not only its end
// state: the same event, from the same snapshot, takes the same
// generations in the sandbox's workers as in the simulator plans run
// (assignor.Sim), each moving the same pieces on the same workers.

// roundMoves is one round as text: per worker its assigned (+) and revoked
// (-) pieces, sorted, and whether a delay was told.
func roundMoves(names func(string) string, members map[string][2]assignor.Pieces, delay bool) string {
	var parts []string
	for id, m := range members {
		var moves []string
		for _, p := range pieceNames(m[0].Connectors, m[0].Tasks) {
			moves = append(moves, "+"+p)
		}
		for _, p := range pieceNames(m[1].Connectors, m[1].Tasks) {
			moves = append(moves, "-"+p)
		}
		if len(moves) > 0 {
			parts = append(parts, names(id)+" "+strings.Join(moves, " "))
		}
	}
	slices.Sort(parts)
	if delay {
		parts = append(parts, "delay told")
	}
	if len(parts) == 0 {
		return "nothing moved"
	}
	return strings.Join(parts, "; ")
}

func sandboxMoves(c *Cluster, rs []RoundRecord) []string {
	var out []string
	for _, r := range rs {
		m := map[string][2]assignor.Pieces{}
		for _, mb := range r.Members {
			m[mb.MemberID] = [2]assignor.Pieces{mb.Assigned, mb.Revoked}
		}
		out = append(out, roundMoves(c.WorkerOfMember, m, r.DelayMs > 0))
	}
	return out
}

func simMoves(c *Cluster, rs []assignor.Round) []string {
	var out []string
	for _, r := range rs {
		m := map[string][2]assignor.Pieces{}
		delay := false
		for id, w := range r.Workers {
			m[id] = [2]assignor.Pieces{w.Assigned, w.Revoked}
			delay = delay || w.DelayMs > 0
		}
		out = append(out, roundMoves(c.WorkerOfMember, m, delay))
	}
	return out
}

// requireSameRounds compares the sandbox's rounds since round index from
// with the simulator's.
func requireSameRounds(t *testing.T, c *Cluster, from int, sim []assignor.Round) {
	t.Helper()
	got, want := sandboxMoves(c, c.Rounds()[from:]), simMoves(c, sim)
	if !slices.Equal(got, want) {
		t.Errorf("the sandbox took %d rounds, the plan %d:\nsandbox:\n  %s\nplan:\n  %s", len(got), len(want),
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// waitRound waits until the sandbox has more than n rounds and every
// running worker has completed the last one, and returns that round.
func waitRound(t *testing.T, c *Cluster, n int) RoundRecord {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if rs := c.Rounds(); len(rs) > n {
			last := rs[len(rs)-1]
			done := true
			for _, w := range c.WorkerStates() {
				done = done && w.Generation >= last.Generation && !w.Joining
			}
			if done {
				return last
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no round after round %d within 15s", n)
	return RoundRecord{}
}

// A member whose SyncGroup comes late (a loaded machine) does not make the
// join take more rounds: its peers, told to give work up, wait for it
// before the follow-up round, as Kafka's coordinator makes them (every
// assignment of a generation goes out at once). Without the wait the slow
// member rejoined still reporting what it was told to give up, was revoked
// it again, and the join took four rounds.
func TestRoundsJoinWithSlowMember(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	c.slowSyncOf(nonLeader(t, c, leader), 150*time.Millisecond)
	from := len(c.Rounds())
	name, err := c.AddWorker(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Join(memberIDOf(t, c, name), assignor.Pieces{}); err != nil {
		t.Fatal(err)
	}
	rounds := sim.Settle(0)
	requireAgreement(t, c, sim)
	requireSameRounds(t, c, from, rounds)
}

func TestRoundsCleanLeaveAndCrash(t *testing.T) {
	t.Parallel() // owns its cluster
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			t.Parallel()
			c := agreementCluster(t, "")
			sim, leader := snapshotSim(t, c)
			name := nonLeader(t, c, leader)
			id := memberOf(t, c, name)
			from := len(c.Rounds())
			var err error
			if crash {
				err = c.KillWorker(name)
			} else {
				err = c.StopWorker(context.Background(), name)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.Leave(id); err != nil {
				t.Fatal(err)
			}
			rounds := sim.Settle(0)
			requireAgreement(t, c, sim)
			requireSameRounds(t, c, from, rounds)
		})
	}
}

// A rolling restart: each worker stops cleanly, comes back under a new
// member id while its work is held for the delay, and the next one stops
// once the cluster has settled; the leader goes last, and its successor
// starts with no memory of the previous assignment.
func TestRoundsRollingRestart(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	lead := leaderName(t, c, leader)
	var order []string
	for _, w := range c.Workers() {
		if w != lead {
			order = append(order, w)
		}
	}
	order = append(order, lead)
	from := len(c.Rounds())
	var rounds []assignor.Round
	for _, name := range order {
		id := memberOf(t, c, name)
		n := len(c.Rounds())
		if err := c.StopWorker(context.Background(), name); err != nil {
			t.Fatal(err)
		}
		left := waitRound(t, c, n)
		if name == lead {
			sim.NewLeader()
		}
		if err := sim.Leave(id); err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, sim.Rebalance(false))
		if _, err := c.AddWorker(context.Background(), name, ""); err != nil {
			t.Fatal(err)
		}
		joined := waitRound(t, c, len(c.Rounds()))
		sim.Sleep(joined.At.Sub(left.At).Milliseconds())
		if err := sim.Join(memberIDOf(t, c, name), assignor.Pieces{}); err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, sim.Settle(0)...)
		requireAgreement(t, c, sim)
	}
	requireSameRounds(t, c, from, rounds)
}
