package scenario

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/plan/internal/scenariogen"
)

// BenchmarkReplayRoundWorkers times one rebalance round of `plan replay` as
// the worker count grows (ten pieces per worker), to show that a round's
// cost grows linearly in workers (BENCHMARKS.md, "Plan rounds at scale").
func BenchmarkReplayRoundWorkers(b *testing.B) {
	for _, workers := range []int{10000, 30000, 100000} {
		data := scenariogen.OneRound(workers, workers, 9)
		sc, err := ParseScenario(data)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Replay(sc, ReplayOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
