package sandbox

import (
	"context"
	"testing"
	"time"
)

// BenchmarkStartToStable measures what the demo waits for: broker start,
// internal topics, 4 connectors (one sink with data), 3 workers joining,
// until the group and the sink group are stable.
func BenchmarkStartToStable(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c, err := Start(ctx, TestConfig())
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []ConnectorSpec{{Name: "a", Tasks: 3}, {Name: "b", Tasks: 2}, {Name: "c", Kind: KindSink, Tasks: 2}, {Name: "d", Tasks: 1}} {
			if err := c.AddConnector(ctx, s); err != nil {
				b.Fatal(err)
			}
		}
		if err := c.AddWorkers(ctx, 3); err != nil {
			b.Fatal(err)
		}
		if err := c.WaitStable(ctx); err != nil {
			b.Fatal(err)
		}
		c.Close()
		cancel()
	}
}

// BenchmarkJoinRebalance measures one worker joining a stable 3-worker
// group until everything settles (two cooperative rounds).
func BenchmarkJoinRebalance(b *testing.B) {
	ctx := context.Background()
	c, err := Start(ctx, TestConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for _, s := range []ConnectorSpec{{Name: "a", Tasks: 6}, {Name: "b", Tasks: 6}} {
		if err := c.AddConnector(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.AddWorkers(ctx, 3); err != nil {
		b.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.WaitStable(wctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name, err := c.AddWorker(ctx, "", "")
		if err != nil {
			b.Fatal(err)
		}
		if err := c.WaitStable(wctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := c.StopWorker(ctx, name); err != nil {
			b.Fatal(err)
		}
		if err := c.WaitStable(wctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
