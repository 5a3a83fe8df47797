package assignor

import (
	"fmt"
	"reflect"
	"testing"
)

// RebalanceDeal runs the same eager rounds as Rebalance: the cards of each
// member's place are what Rebalance assigns it, and what a member holds
// (Owned, a Clone) is the same afterwards, through joins, leaves and a new
// configuration.
func TestRebalanceDealMatchesRebalance(t *testing.T) {
	a := mustSim(t, SimConfig{Protocol: "eager"})
	specs := func(n int) []ConnectorSpec {
		var out []ConnectorSpec
		for i := 0; i < n; i++ {
			out = append(out, ConnectorSpec{Name: fmt.Sprintf("c%02d", (i*7)%n), Tasks: i % 5})
		}
		return out
	}
	a.SetConnectors(specs(13))
	for i := 0; i < 6; i++ {
		if err := a.Join(fmt.Sprintf("w%d", (i*5)%6), Pieces{Connectors: []string{"c01"}}); err != nil {
			t.Fatal(err)
		}
	}
	b := a.Clone()
	lastDeck := -1
	for step := 0; step < 10; step++ {
		for _, s := range []*Sim{a, b} {
			var err error
			switch step {
			case 2, 7:
				err = s.Leave(s.Members()[step%len(s.Members())])
			case 3:
				err = s.Join("w10", Pieces{})
			case 5:
				s.SetConnectors(specs(17))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		ra := a.Rebalance(false)
		if step == 6 {
			b = b.Clone() // a clone hands out the cards of its source's last deal
		}
		rd := b.RebalanceDeal()
		if ra.Generation != rd.Generation || len(rd.Places) != len(b.Members()) {
			t.Fatalf("step %d: generation %d/%d, %d places for %d members", step, ra.Generation, rd.Generation, len(rd.Places), len(b.Members()))
		}
		if step == 5 && rd.DeckID == lastDeck {
			t.Errorf("step %d: a new configuration kept deck %d", step, rd.DeckID)
		}
		lastDeck = rd.DeckID
		n := len(rd.Places)
		for i, id := range b.Members() {
			var conns, tasks []int32
			for k := rd.Places[i]; k < len(rd.Conns)+len(rd.Tasks); k += n {
				if k < len(rd.Conns) {
					conns = append(conns, rd.Conns[k])
				} else {
					tasks = append(tasks, rd.Tasks[k-len(rd.Conns)])
				}
			}
			got := b.ix.sortedPieces(conns, tasks, &b.keyBuf)
			if want := ra.Workers[id].Assigned; !reflect.DeepEqual(got, want) {
				t.Errorf("step %d %s: place %d deals %v, Rebalance %v", step, id, rd.Places[i], got, want)
			}
			if step%2 == 0 { // read every other round: a member read late still holds its cards
				if got, want := b.Owned(id), a.Owned(id); !reflect.DeepEqual(got, want) {
					t.Errorf("step %d %s: owns %v, Rebalance %v", step, id, got, want)
				}
			}
		}
	}
}
