package plan

import (
	"context"
	"testing"
	"time"
)

func classicState() ClusterState {
	return SyntheticState(SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
}

func classicOpts() PlanOptions {
	return PlanOptions{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
}

func TestAdviseClassicDump(t *testing.T) {
	start := time.Now()
	res, err := Advise(context.Background(), classicState(), classicOpts(), AdviseOptions{RestartMs: 90000, MaxMoves: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d candidates in %s; verdict %s; %s", len(res.Candidates), time.Since(start), res.Verdict, res.Why)
	for _, c := range res.Candidates {
		t.Logf("%-60s roll %6s task-s moved %3d rounds %3d | crash %v front=%v cur=%v", c.Setting, TaskSeconds(c.Roll.TaskMsNotRunning), c.Roll.TasksMoved, c.Roll.Rounds, outageText(c.Crash.LongestTaskOutageMs), c.OnFront, c.IsCurrent)
	}
}
