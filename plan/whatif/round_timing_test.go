package whatif

import (
	"testing"

	"github.com/connectscope/connectscope/plan/timeline"
)

func TestEventsDuringARoundWaitForItsEnd(t *testing.T) {
	st := synth(t, "workers=3,connectors=3,tasks=3")
	opts := testOpts(300000)
	opts.RoundTimeMs = 5000
	// w4 joins at 0; w5 joins 1 s later, inside round 1 (0..5 s): its join
	// waits for the round's end, where the follow-up round runs anyway.
	e := timeline.Event{Kind: timeline.EventJoin, Worker: "w4", Then: []timeline.Event{{AfterMs: 1000, Kind: timeline.EventJoin, Worker: "w5"}}}
	tl, err := timeline.Run(st, opts, "sessioned", []timeline.Event{e})
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
	for _, tl := range []*timeline.Timeline{res.Branches[0].Cooperative, res.Branches[0].Eager} {
		if len(tl.Notes) > 0 || len(tl.Summary.NotRunningAtEnd) > 0 {
			t.Errorf("%s: notes %v, not running at the end %v", tl.Protocol, tl.Notes, tl.Summary.NotRunningAtEnd)
		}
		if tl.Summary.Rounds <= timeline.DefaultMaxRounds {
			t.Errorf("%s: %d rounds; a roll of 250 workers needs more than %d", tl.Protocol, tl.Summary.Rounds, timeline.DefaultMaxRounds)
		}
	}
}
