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

func TestEventsDuringARoundWaitForItsEnd(t *testing.T) {
	st := synth(t, "workers=3,connectors=3,tasks=3")
	opts := testOpts(300000)
	opts.RoundTimeMs = 5000
	// w4 joins at 0; w5 joins 1 s later, inside round 1 (0..5 s): its join
	// waits for the round's end, where the follow-up round runs anyway.
	e := Event{Kind: EventJoin, Worker: "w4", Then: []Event{{AfterMs: 1000, Kind: EventJoin, Worker: "w5"}}}
	tl, err := runTimeline(st, opts, "sessioned", []Event{e})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Rounds) < 2 || tl.Rounds[1].TimeMs != 5000 {
		t.Fatalf("second round at %v, want 5000", roundTimes(tl))
	}
	if tl.Events[1].TimeMs != 5000 {
		t.Errorf("w5's join logged at %d, want the end of round 1", tl.Events[1].TimeMs)
	}
	checkBalanced(t, tl, 3, 9)
}

// A roll of a few hundred workers takes more rounds than the plans' default
// cap: it must still run to the end, under both protocols.
func TestBigRollSettles(t *testing.T) {
	st := synth(t, "workers=250,connectors=250,tasks=1")
	res, err := RollingRestartPlan(st, testOpts(300000), 90000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range []*Timeline{res.Branches[0].Cooperative, res.Branches[0].Eager} {
		if len(tl.Notes) > 0 || len(tl.Summary.NotRunningAtEnd) > 0 {
			t.Errorf("%s: notes %v, not running at the end %v", tl.Protocol, tl.Notes, tl.Summary.NotRunningAtEnd)
		}
		if tl.Summary.Rounds <= DefaultMaxRounds {
			t.Errorf("%s: %d rounds; a roll of 250 workers needs more than %d", tl.Protocol, tl.Summary.Rounds, DefaultMaxRounds)
		}
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
