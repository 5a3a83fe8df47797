package assignor

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// cyclicDeal is the eager assignor as Java writes it: one iterator over the
// members in id order, dealing connectors then tasks, one card each turn.
func cyclicDeal(d eagerDeck, order []int, members int) []memberOut {
	out := make([]memberOut, members)
	next := 0
	for _, c := range d.conns {
		m := &out[order[next]]
		m.assignedConns = append(m.assignedConns, c)
		next = (next + 1) % len(order)
	}
	for _, t := range d.tasks {
		m := &out[order[next]]
		m.assignedTasks = append(m.assignedTasks, t)
		next = (next + 1) % len(order)
	}
	return out
}

func TestEagerDealMatchesCyclicIterator(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		n, nc, nt := 1+r.IntN(12), r.IntN(30), r.IntN(60)
		var d eagerDeck
		for i := range nc {
			d.conns = append(d.conns, int32(i))
		}
		for i := range nt {
			d.tasks = append(d.tasks, int32(1000+i))
		}
		order := r.Perm(n)
		got, want := d.deal(order, n), cyclicDeal(d, order, n)
		for m := range n {
			g, w := got[m], want[m]
			if !slices.Equal(g.assignedConns, w.assignedConns) || !slices.Equal(g.assignedTasks, w.assignedTasks) {
				t.Fatalf("%d members, %d connectors, %d tasks, member %d: dealt %v %v, the cyclic iterator %v %v",
					n, nc, nt, m, g.assignedConns, g.assignedTasks, w.assignedConns, w.assignedTasks)
			}
		}
	}
}

// TestEagerSimMatchesAssign holds the simulator's eager rounds, which keep
// the members' id order and the deck between rounds, to the one-shot
// assignor, which sorts both afresh, while members join and leave and the
// connectors change (names whose Java and Go orders differ included).
func TestEagerSimMatchesAssign(t *testing.T) {
	cfg := SimConfig{Protocol: "eager"}
	sim := mustSim(t, cfg)
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"w1", "w10", "w2", "W3", "w1.2", "\uff5ew", "\U0001F600w", "a", "w-9"}
	var members []string
	conns := []ConnectorSpec{{Name: "orders", Tasks: 3}, {Name: "\U0001F600c", Tasks: 2}, {Name: "\uff5ec", Tasks: 1}}
	sim.SetConnectors(conns)
	for step := range 200 {
		switch w := names[r.IntN(len(names))]; {
		case slices.Contains(members, w):
			if err := sim.Leave(w); err != nil {
				t.Fatal(err)
			}
			members = slices.DeleteFunc(members, func(x string) bool { return x == w })
		default:
			if err := sim.Join(w, Pieces{}); err != nil {
				t.Fatal(err)
			}
			members = append(members, w)
		}
		if step%17 == 0 {
			conns = append(conns, ConnectorSpec{Name: fmt.Sprintf("c%d", step), Tasks: r.IntN(4)})
			sim.SetConnectors(conns)
		}
		round := sim.Rebalance(false)
		in := AssignInput{Connectors: conns}
		for _, m := range members {
			in.Members = append(in.Members, MemberInput{ID: m})
		}
		out, _, err := Assign(cfg, NewAssignorState(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range out.Members {
			ac, at := sim.ix.internPieces(m.Assigned)
			if got, want := sim.ix.sortedPieces(ac, at, new([]uint64)), round.Workers[m.ID].Assigned; !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d, member %s of %v: Assign %+v, Sim %+v", step, m.ID, members, got, want)
			}
		}
	}
}
