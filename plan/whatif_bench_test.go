package plan

import "testing"

// BenchmarkRollingRestartPlan times a whole rolling-restart preview (both
// protocols) of 100 workers and 1,000 connectors x 10 tasks.
func BenchmarkRollingRestartPlan(b *testing.B) {
	st := SyntheticState(SyntheticSpec{Workers: 100, Connectors: 1000, Tasks: 10})
	opts := PlanOptions{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	for b.Loop() {
		if _, err := RollingRestartPlan(st, opts, 90000, StopClean, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJoinPlan times a join preview on 1,000 workers and 100,000 tasks.
func BenchmarkJoinPlan(b *testing.B) {
	st := SyntheticState(SyntheticSpec{Workers: 1000, Connectors: 10000, Tasks: 10})
	opts := PlanOptions{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	for b.Loop() {
		if _, err := JoinPlan(st, opts, []string{"w1001"}); err != nil {
			b.Fatal(err)
		}
	}
}
