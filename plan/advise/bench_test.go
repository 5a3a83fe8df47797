package advise

import (
	"context"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
)

// BenchmarkAdviseClassic times the full default sweep of the README's
// classic case: 6 workers, 30 connectors x 3 tasks, 90 s restarts.
func BenchmarkAdviseClassic(b *testing.B) {
	st, opts := classicState(), classicOpts()
	for b.Loop() {
		if _, err := Advise(context.Background(), st, opts, AdviseOptions{RestartMs: 90000, MaxMoves: -1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdviseLarge times the full default sweep of 100 workers,
// 1,000 connectors and 3,000 tasks, every figure (as -o json); Table only
// what the tables show (ShownOnly); Fresh every simulation from scratch,
// nothing shared or cut (the sweep before it shared work).
func BenchmarkAdviseLarge(b *testing.B) {
	benchLarge(b, AdviseOptions{})
}

func BenchmarkAdviseLargeTable(b *testing.B) {
	benchLarge(b, AdviseOptions{ShownOnly: true})
}

func BenchmarkAdviseLargeFresh(b *testing.B) {
	benchLarge(b, AdviseOptions{fresh: true})
}

func benchLarge(b *testing.B, ao AdviseOptions) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 100, Connectors: 1000, Tasks: 3})
	opts := classicOpts()
	ao.RestartMs, ao.MaxMoves = 90000, -1
	for b.Loop() {
		if _, err := Advise(context.Background(), st, opts, ao); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdviseLargeOneDelay is the large case with one delay and one
// worker, to profile a single simulation's share.
func BenchmarkAdviseLargeOneDelay(b *testing.B) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 100, Connectors: 1000, Tasks: 3})
	opts := classicOpts()
	for b.Loop() {
		if _, err := Advise(context.Background(), st, opts, AdviseOptions{RestartMs: 90000, MaxMoves: -1, DelaysMs: []int64{300000}, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
