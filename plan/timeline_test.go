package plan

import "testing"

func TestDowntimeIntegrates(t *testing.T) {
	a, b, c := pieceKey{"x", 0}, pieceKey{"x", 1}, pieceKey{"x", -1}
	d := newDowntime([]pieceKey{a, b, c}, pieceSet{a: true, c: true}) // b never ran
	d.stop(a, 100)
	d.stop(a, 150) // already stopped: no new outage
	d.start(a, 300)
	d.stop(a, 400)
	d.start(a, 450)
	d.start(b, 50)
	d.stop(c, 10)
	d.reconfigure([]pieceKey{a, b}, 60) // c removed while down: its outage ends with it
	d.start(c, 70)                      // not configured any more: ignored
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
	connMs, taskMs, longest := d.sums()
	if connMs != 50 || taskMs != 300 || longest != 200 {
		t.Errorf("sums %d %d %d", connMs, taskMs, longest)
	}
	if iv := d.intervals[a]; len(iv) != 2 || iv[0] != (Interval{100, 300}) || iv[1] != (Interval{400, 450}) {
		t.Errorf("a intervals %v", iv)
	}
	// A piece still down at the end is reported open and counted to the end.
	d2 := newDowntime([]pieceKey{a}, pieceSet{a: true})
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
