package timeline

import (
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
)

func TestIDListSetOperations(t *testing.T) {
	a, b := idList{1, 3, 5, 7}, idList{2, 3, 7, 9}
	for _, c := range []struct {
		name      string
		got, want idList
	}{
		{"minus", a.minus(b), idList{1, 5}},
		{"union", a.union(b), idList{1, 2, 3, 5, 7, 9}},
		{"common", a.common(b), idList{3, 7}},
		{"minus empty", a.minus(nil), a},
		{"sorted", sortedIDs([]int32{5, 1, 5, 3}), idList{1, 3, 5}},
	} {
		if len(c.got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
			continue
		}
		for i := range c.got {
			if c.got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
				break
			}
		}
	}
	if !a.has(5) || a.has(4) {
		t.Errorf("has")
	}
}

// A connector added before the others in name order renumbers every piece:
// what was held and logged before must follow.
func TestPieceIndexRenumbers(t *testing.T) {
	ix := newPieceIndex([]cluster.PieceKey{{Connector: "b", Task: -1}, {Connector: "b", Task: 0}})
	b0 := ix.lookup(cluster.PieceKey{Connector: "b", Task: 0})
	if ix.name(b0) != "b-0" {
		t.Fatalf("name %q", ix.name(b0))
	}
	remap := ix.add([]cluster.PieceKey{{Connector: "a", Task: -1}, {Connector: "a", Task: 0}, {Connector: "b", Task: 0}})
	if got := remap[b0]; ix.keys[got] != (cluster.PieceKey{Connector: "b", Task: 0}) || ix.name(got) != "b-0" {
		t.Errorf("b-0 renumbered to %d (%v, %q)", got, ix.keys[got], ix.name(got))
	}
	for i := 1; i < ix.len(); i++ {
		if !ix.keys[i-1].Less(ix.keys[i]) {
			t.Errorf("ids out of output order: %v", ix.keys)
		}
	}
	if ix.add([]cluster.PieceKey{{Connector: "a", Task: 0}}) != nil {
		t.Errorf("adding known pieces renumbered")
	}
}
