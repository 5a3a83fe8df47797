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
