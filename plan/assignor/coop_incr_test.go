package assignor

import (
	"fmt"
	"testing"
)

// TestIncrementalRoundsMatchFull runs rolls, delays, duplicated claims,
// configuration changes, a generation mismatch and a new leader with the
// engine redoing every incremental derivation and memory refresh in full:
// each must give what the full walk gives.
func TestIncrementalRoundsMatchFull(t *testing.T) {
	for _, v := range []string{"2.4.1", "2.6.0", "3.3.2", "3.9.0"} {
		for _, delay := range []int64{0, 30000} {
			t.Run(fmt.Sprintf("%s/delay=%d", v, delay), func(t *testing.T) {
				s := mustSim(t, SimConfig{KafkaVersion: mustVersion(t, v), MaxDelayMs: delay})
				s.eng.inc.check = true
				incrementalScenario(t, s)
				if err := s.eng.inc.checkErr; err != nil {
					t.Fatal(err)
				}
				if s.eng.inc.rounds < 10 {
					t.Fatalf("%d rounds derived incrementally, want the scenario to exercise them", s.eng.inc.rounds)
				}
			})
		}
	}
}

func incrementalScenario(t *testing.T, s *Sim) {
	t.Helper()
	worker := func(i int) string { return fmt.Sprintf("worker-%d", i) }
	connectors := func(n, tasks int) []ConnectorSpec {
		out := make([]ConnectorSpec, n)
		for i := range out {
			out[i] = ConnectorSpec{Name: fmt.Sprintf("conn-%02d", i), Tasks: tasks}
		}
		return out
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	s.SetConnectors(connectors(12, 3))
	for i := 0; i < 5; i++ {
		must(s.Join(worker(i), Pieces{}))
	}
	s.Settle(20)
	for i := 5; i < 8; i++ { // load-balancing revocations in a group where nothing is lost or new
		must(s.Join(worker(i), Pieces{}))
		s.Settle(20)
	}
	for i := 0; i < 5; i++ { // a rolling restart, each back before and after the delay
		must(s.Leave(worker(i)))
		s.Rebalance(false)
		s.Sleep(5000)
		must(s.Join(worker(i), Pieces{}))
		s.Settle(20)
		s.Sleep(40000)
		s.Settle(20)
	}
	must(s.Join("claims-worker-0s", s.Owned(worker(0)))) // duplicated pieces
	s.Settle(20)
	s.SetConnectors(connectors(9, 4)) // deleted connectors, new tasks
	s.Settle(20)
	s.Rebalance(true) // a generation mismatch
	s.Settle(20)
	s.NewLeader()
	s.Settle(20)
	must(s.Leave(worker(2)))
	must(s.Leave(worker(3)))
	s.Rebalance(false)
	s.Sleep(60000)
	s.Settle(20)
	must(s.Join(worker(9), Pieces{}))
	s.Settle(20)
}

// TestAllPresent holds allPresent's quick answers (members in join order)
// to a plain lookup, with members left, joined and reordered.
func TestAllPresent(t *testing.T) {
	members := func(ids ...string) []roundMember {
		out := make([]roundMember, len(ids))
		for i, id := range ids {
			out[i] = roundMember{id: id}
		}
		return out
	}
	for _, c := range []struct {
		prev []string
		now  []roundMember
		want bool
	}{
		{nil, members("a"), true},
		{[]string{"a", "b", "c"}, members("a", "b", "c", "d"), true},
		{[]string{"a", "b", "c"}, members("a", "c", "d"), false},
		{[]string{"a", "b", "c"}, members("c", "b", "a"), true},
		{[]string{"a", "b", "c"}, members("c", "a", "x"), false},
		{[]string{"a", "b"}, members(), false},
	} {
		loads := make([]load, len(c.now))
		for i, m := range c.now {
			loads[i].id = m.id
		}
		if got := allPresent(c.prev, c.now, loads); got != c.want {
			t.Errorf("allPresent(%v, %v) = %v, want %v", c.prev, c.now, got, c.want)
		}
	}
}

// TestIncrementalAfterNewLeader is the generated scenario gen-20261201-0353
// of the differential suite (e2e/assignordiff), on which a first version
// of the incremental rounds lost a revocation from the leader's memory: a
// new leader, generation mismatches, then joins and leaves that revoke
// while nothing is lost or new.
func TestIncrementalAfterNewLeader(t *testing.T) {
	for _, v := range []string{"2.3.0", "3.9.2"} {
		t.Run(v, func(t *testing.T) {
			s := mustSim(t, SimConfig{Protocol: "compatible", KafkaVersion: mustVersion(t, v), MaxDelayMs: 30000})
			s.eng.inc.check = true
			cfg := []ConnectorSpec{{"cdc-sink", 1}, {"cdc-source-96", 0}, {"clicks-source-34", 1}, {"events-sink", 5},
				{"inventory-source", 7}, {"logs-source-32", 1}, {"logs-source-88", 11}, {"orders-sink", 6}, {"users-sink-89", 10}}
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			s.SetConnectors(cfg)
			for i := 1; i <= 6; i++ {
				must(s.Join(fmt.Sprintf("worker-%d", i), Pieces{}))
			}
			s.Settle(0)
			s.SetConnectors(append(cfg, ConnectorSpec{"events-sink-32", 0}))
			s.Rebalance(false)
			s.Rebalance(true)
			s.NewLeader()
			s.Settle(1)
			s.Rebalance(true)
			must(s.Join("worker-7", Pieces{}))
			s.Rebalance(false)
			must(s.Leave("worker-1"))
			s.Rebalance(false)
			must(s.Join("worker-8", Pieces{}))
			s.Rebalance(false)
			must(s.Leave("worker-4"))
			must(s.Join("worker-9", Pieces{}))
			s.Rebalance(false)
			s.Sleep(2462)
			s.Settle(0)
			s.Settle(0)
			if err := s.eng.inc.checkErr; err != nil {
				t.Fatal(err)
			}
		})
	}
}
