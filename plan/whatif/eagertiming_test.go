package whatif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Under eager every member stops all its work before it rejoins, and the
// round waits for the slowest. Real eager stops ranged from
// EagerStopEarliestMs to EagerStopLatestMs (a source task stops when its
// poll returns), so the plan says, once, what that range means for the
// first eager round's running tasks.
func TestEagerRoundSaysWhatItsStopsSpreadMeans(t *testing.T) {
	st := synth(t, "workers=2,connectors=5,tasks=2") // 15 pieces, 8 on the member holding the most; 10 tasks
	opts := timeline.Options{MaxDelayMs: 15000, SessionTimeoutMs: 10000, HeartbeatIntervalMs: 3000, RoundTimeMs: 50}
	res, err := JoinPlan(st, opts, []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	planned := timeline.EagerStopMs(8)
	less := (planned - timeline.EagerStopEarliestMs) * 10
	more := (timeline.EagerStopLatestMs - planned) * 10
	want := fmt.Sprintf("taken as %s (for the member holding the most); real eager stops took %s to %s, as long as their source tasks' polls took to return, which no snapshot shows: round 1 stops 10 running tasks, which can add up to %s fewer or %s more task-seconds",
		format.Millis(planned), format.Millis(timeline.EagerStopEarliestMs), format.Millis(timeline.EagerStopLatestMs), format.Millis(less), format.Millis(more))
	eager := strings.Join(res.Branches[0].Eager.Notes, "\n")
	if strings.Count(eager, "timing-dependent") != 1 || !strings.Contains(eager, want) {
		t.Errorf("eager notes %q\nwant one timing note with %q", eager, want)
	}
	if coop := strings.Join(res.Branches[0].Cooperative.Notes, "\n"); strings.Contains(coop, "timing-dependent") {
		t.Errorf("the cooperative branch has an eager note: %q", coop)
	}

	// A rolling restart has an eager round per worker: one note, the first's.
	roll, err := RollingRestartPlan(st, opts, 5000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl := roll.Branches[0].Eager
	if len(tl.Rounds) < 2 {
		t.Fatalf("eager roll rounds %+v", tl.Rounds)
	}
	if notes := strings.Join(tl.Notes, "\n"); strings.Count(notes, "under eager every member stops") != 1 || !strings.Contains(notes, "round 1 stops") {
		t.Errorf("eager roll notes %q: want one eager stop note, for round 1", notes)
	}

	// Without the heartbeat interval the uncalibrated model stops nothing
	// before the round, and says nothing of it.
	res, err = JoinPlan(st, testOpts(15000), []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Branches[0].Eager.Notes, "\n"); strings.Contains(notes, "timing-dependent") {
		t.Errorf("uncalibrated eager notes %q", notes)
	}
}
