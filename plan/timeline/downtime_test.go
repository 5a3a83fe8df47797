package timeline

import (
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
)

func TestDowntimeIntegrates(t *testing.T) {
	ix := newPieceIndex([]cluster.PieceKey{{Connector: "x", Task: 0}, {Connector: "x", Task: 1}, {Connector: "x", Task: -1}})
	a, b, c := ix.lookup(cluster.PieceKey{Connector: "x", Task: 0}), ix.lookup(cluster.PieceKey{Connector: "x", Task: 1}), ix.lookup(cluster.PieceKey{Connector: "x", Task: -1})
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

// Lazy eager rounds of different lengths: a piece that ran through any
// run of them adds their total and the longest of them.
func TestCyclesRanThrough(t *testing.T) {
	d := newDowntime(0, nil, func(int32) bool { return false }, false)
	d.lazyCycles()
	lengths := []int64{700, 120, 950, 950, 40, 3000, 5, 610, 610, 2200, 90}
	at := int64(0)
	for _, ms := range lengths {
		d.cycle(at, at+ms, true)
		at += ms + 1000
	}
	for first := range lengths {
		var total, longest int64
		for _, ms := range lengths[first:] {
			total += ms
			longest = max(longest, ms)
		}
		gotT, gotL := d.cycles.ranThrough(int32(first))
		if gotT != total || gotL != longest {
			t.Errorf("from round %d: total %d, longest %d; want %d and %d", first, gotT, gotL, total, longest)
		}
	}
}
