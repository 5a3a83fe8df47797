//go:build e2e

package realcluster

import (
	"testing"

	plancluster "github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// The matrix reads the range an eager plan gives from the plan's own note,
// so the note's words and the reader must agree: a real plan's note gives
// the figure less and plus the spread of its 10 running tasks' stops.
func TestEagerStopRangeReadsAPlansNote(t *testing.T) {
	syn, err := plancluster.ParseSynthetic("workers=2,connectors=5,tasks=2")
	if err != nil {
		t.Fatal(err)
	}
	opts := timeline.Options{MaxDelayMs: 15000, SessionTimeoutMs: 10000, HeartbeatIntervalMs: 3000, RoundTimeMs: 50}
	res, err := whatif.JoinPlan(plancluster.SyntheticState(syn), opts, []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[0].Eager
	lo, hi, ok := eagerStopRange(tl.Notes, tl.Summary.TaskMsNotRunning)
	if !ok {
		t.Fatalf("no eager stop range in %q", tl.Notes)
	}
	planned := timeline.EagerStopMs(8)
	if wantLo, wantHi := tl.Summary.TaskMsNotRunning-10*(planned-timeline.EagerStopEarliestMs), tl.Summary.TaskMsNotRunning+10*(timeline.EagerStopLatestMs-planned); lo != wantLo || hi != wantHi {
		t.Errorf("range %d to %d task-ms, want %d to %d", lo, hi, wantLo, wantHi)
	}
	if _, _, ok := eagerStopRange(res.Branches[0].Cooperative.Notes, 1); ok {
		t.Error("a cooperative plan has no eager stop range")
	}
}
