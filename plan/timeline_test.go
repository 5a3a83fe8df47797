package plan

import "testing"

func TestDowntimeIntegrates(t *testing.T) {
	ix := newPieceIndex([]pieceKey{{"x", 0}, {"x", 1}, {"x", -1}})
	a, b, c := ix.lookup(pieceKey{"x", 0}), ix.lookup(pieceKey{"x", 1}), ix.lookup(pieceKey{"x", -1})
	d := newDowntime(ix.len(), []int32{a, b, c}, func(id int32) bool { return id == a || id == c }, true) // b never ran
	d.stop(a, 100)
	d.stop(a, 150) // already stopped: no new outage
	d.start(a, 300)
	d.stop(a, 400)
	d.start(a, 450)
	d.start(b, 50)
	d.stop(c, 10)
	next := make([]bool, ix.len())
	next[a], next[b] = true, true
	d.reconfigure(next, 60) // c removed while down: its outage ends with it
	d.start(c, 70)          // not configured any more: ignored
	open := d.finish(500)
	if len(open) != 0 {
		t.Errorf("open at the end: %v", open)
	}
	if got := d.total[a]; got != 250 {
		t.Errorf("a: %d ms, want 200+50", got)
	}
	if got := d.longest[a]; got != 200 {
		t.Errorf("a longest %d", got)
	}
	if got := d.total[b]; got != 50 {
		t.Errorf("b: %d ms, want 50 (from the start until it ran)", got)
	}
	if d.stopped[b] {
		t.Errorf("b never ran, so it was never stopped")
	}
	connMs, taskMs, longest := d.sums(ix)
	if connMs != 50 || taskMs != 300 || longest != 200 {
		t.Errorf("sums %d %d %d", connMs, taskMs, longest)
	}
	if iv := d.intervals()[a]; len(iv) != 2 || iv[0] != (Interval{100, 300}) || iv[1] != (Interval{400, 450}) {
		t.Errorf("a intervals %v", iv)
	}
	// A piece still down at the end is reported open and counted to the end.
	d2 := newDowntime(ix.len(), []int32{a}, func(int32) bool { return true }, true)
	d2.stop(a, 10)
	if open := d2.finish(40); len(open) != 1 || d2.total[a] != 30 {
		t.Errorf("open %v, total %d", open, d2.total[a])
	}
}

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
	ix := newPieceIndex([]pieceKey{{"b", -1}, {"b", 0}})
	b0 := ix.lookup(pieceKey{"b", 0})
	if ix.name(b0) != "b-0" {
		t.Fatalf("name %q", ix.name(b0))
	}
	remap := ix.add([]pieceKey{{"a", -1}, {"a", 0}, {"b", 0}})
	if got := remap[b0]; ix.keys[got] != (pieceKey{"b", 0}) || ix.name(got) != "b-0" {
		t.Errorf("b-0 renumbered to %d (%v, %q)", got, ix.keys[got], ix.name(got))
	}
	for i := 1; i < ix.len(); i++ {
		if !ix.keys[i-1].less(ix.keys[i]) {
			t.Errorf("ids out of output order: %v", ix.keys)
		}
	}
	if ix.add([]pieceKey{{"a", 0}}) != nil {
		t.Errorf("adding known pieces renumbered")
	}
}
