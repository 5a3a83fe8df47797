package whatif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// In a paced scale-in the second clean stop's round falls at a heartbeat
// of the members that stay, in step since the first round: real 4.4.0
// scale-ins (5 s apart, 3 s interval) saw its LeaveGroup 0.37 to 1.9 s
// after the stop, before or after the heartbeat that came 0.5 to 0.7 s
// after it, and so rounds an interval apart at the same moment. The plan
// takes the median and says which heartbeats the measured range reaches.
func TestPacedCleanStopNearAHeartbeatIsTimingDependent(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=3")
	opts := timeline.Options{MaxDelayMs: 15000, SessionTimeoutMs: 10000, HeartbeatIntervalMs: 3000, RoundTimeMs: 50}
	res, err := ScalePlan(st, opts, ScaleOptions{To: 1, Step: 1, PaceMs: 5000, Stop: StopClean})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[0].Cooperative
	if len(tl.Rounds) < 2 {
		t.Fatalf("rounds %+v", tl.Rounds)
	}
	// The members rejoin at their heartbeat: a round's end less its 50 ms.
	first, second := tl.Rounds[0].EndMs-opts.RoundTimeMs, tl.Rounds[1].EndMs-opts.RoundTimeMs
	if (second-first)%opts.HeartbeatIntervalMs != 0 {
		t.Fatalf("round 2's members rejoin at %d, not in the phase of round 1 (%d)", second, first)
	}
	notes := strings.Join(tl.Notes, "\n")
	want := fmt.Sprintf("w2 stops cleanly at 5s; the members, heartbeating in step since round 1, learn of its LeaveGroup (taken as 1.2s after the stop) at their heartbeat at %s;", format.Millis(second))
	may := fmt.Sprintf("can start at the heartbeat at %s or %s,", format.Millis(second-opts.HeartbeatIntervalMs), format.Millis(second))
	if strings.Count(notes, "timing-dependent") != 1 || !strings.Contains(notes, want) || !strings.Contains(notes, may) {
		t.Errorf("notes %q\nwant one timing note with %q and %q", notes, want, may)
	}

	// Stops whose LeaveGroup may join a round in progress, or without the
	// heartbeat interval, have no such note.
	for name, o := range map[string]struct {
		opts timeline.Options
		pace int64
	}{
		"1 s apart (the first LeaveGroup still to come)": {opts, 1000},
		"no heartbeat interval":                          {testOpts(15000), 5000},
	} {
		res, err := ScalePlan(st, o.opts, ScaleOptions{To: 1, Step: 1, PaceMs: o.pace, Stop: StopClean})
		if err != nil {
			t.Fatal(err)
		}
		if notes := strings.Join(res.Branches[0].Cooperative.Notes, "\n"); strings.Contains(notes, "timing-dependent") {
			t.Errorf("%s: %q", name, notes)
		}
	}
}
