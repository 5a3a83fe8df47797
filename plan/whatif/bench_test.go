package whatif

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// BenchmarkRollingRestartPlan times a whole rolling-restart preview (both
// protocols) of 100 workers and 1,000 connectors x 10 tasks.
func BenchmarkRollingRestartPlan(b *testing.B) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 100, Connectors: 1000, Tasks: 10})
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	for b.Loop() {
		if _, err := RollingRestartPlan(st, opts, 90000, StopClean, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJoinPlan times a join preview on 1,000 workers and 100,000 tasks.
func BenchmarkJoinPlan(b *testing.B) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1000, Connectors: 10000, Tasks: 10})
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	for b.Loop() {
		if _, err := JoinPlan(st, opts, []string{"w1001"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRollingRestartScale times the engine alone (both protocols, no
// output) on a rolling restart as the cluster grows, 30 pieces per worker,
// keeping what each output needs: everything (full: -o json, wide), the
// compact form's changes and sums, or the table's summary, without the
// pictures' series (as the commands run without --plot). The full plan of
// 1,000 workers keeps gigabytes and is left out. Besides the wall time it
// reports the process's CPU time per op (cpu-ns/op), which compares
// better on a shared machine.
func BenchmarkRollingRestartScale(b *testing.B) {
	details := map[timeline.Detail]string{timeline.DetailFull: "full", timeline.DetailCompact: "compact", timeline.DetailSummary: "summary"}
	for _, w := range []int{100, 300, 1000} {
		st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: w, Connectors: 10 * w, Tasks: 2})
		order, err := RestartOrder(st, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range []timeline.Detail{timeline.DetailFull, timeline.DetailCompact, timeline.DetailSummary} {
			if w == 1000 && d == timeline.DetailFull {
				continue
			}
			opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000, MaxRounds: RollRoundCap(w), Detail: d, NoPlot: true}
			b.Run(fmt.Sprintf("workers=%d/%s", w, details[d]), func(b *testing.B) {
				cpu, n := processCPU(), 0
				for b.Loop() {
					res := NewResult("rolling-restart", st, opts, "")
					if err := res.addBranch(st, opts, "rolling restart", RollEvents(st, order, 90000, nil, timeline.EventStop, Pacing{})); err != nil {
						b.Fatal(err)
					}
					n++
				}
				b.ReportMetric(float64(processCPU()-cpu)/float64(n), "cpu-ns/op")
			})
		}
	}
}
