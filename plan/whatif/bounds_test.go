package whatif

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/scenario"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Plans beyond ~1 GiB or with durations past the clock's bound are refused
// up front; the issue's own examples are here.
func TestPlanBoundsRefuse(t *testing.T) {
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	maxMs := int64(math.MaxInt64)
	huge := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 1_000_000, Tasks: 1})
	// 1,000 restarts of 10,000 pieces: about 1.25 GB by the roll estimate.
	wide := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1000, Connectors: 5000, Tasks: 1})
	small := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 3, Tasks: 1})
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"join on 2M pieces", func() error { _, err := JoinPlan(huge, opts, []string{"w4"}); return err }, "~1 GiB"},
		{"leave on 2M pieces", func() error { _, err := LeavePlan(huge, opts, "w2", StopClean, nil); return err }, "~1 GiB"},
		{"connector change to 2M pieces", func() error {
			_, err := ConnectorPlan(small, opts, ConnectorChange{Add: map[string]int{"big": 999_999}})
			return err
		}, "~1 GiB"},
		{"rolling restart of 1,000 workers x 10k pieces", func() error {
			_, err := RollingRestartPlan(wide, opts, 30000, StopClean, nil)
			return err
		}, "restart fewer workers"},
		{"returns after 2^63-1 ms", func() error { _, err := LeavePlan(small, opts, "w2", StopClean, &maxMs); return err }, "a century"},
		{"restart time 2^63-1 ms", func() error { _, err := RollingRestartPlan(small, opts, maxMs, StopClean, nil); return err }, "a century"},
		{"round time 2^63-1 ms", func() error {
			o := opts
			o.RoundTimeMs = maxMs
			_, err := JoinPlan(small, o, []string{"w4"})
			return err
		}, "a century"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			var be *bounds.Error
			if !errors.As(err, &be) {
				t.Fatalf("got %v, want a *bounds.Error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// Within the bounds, the clock never goes negative: a leave whose worker
// returns after a century still plans, with times in order.
func TestPlanLongDurationsStayPositive(t *testing.T) {
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	back := int64(bounds.MaxDurationMs)
	res, err := LeavePlan(cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 3, Tasks: 1}), opts, "w2", StopClean, &back)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Branches {
		for _, tl := range []*timeline.Timeline{b.Eager, b.Cooperative} {
			for _, ev := range tl.Events {
				if ev.TimeMs < 0 {
					t.Fatalf("negative time %d in %+v", ev.TimeMs, ev)
				}
			}
		}
	}
}

// A cancelled context stops replay and plans with context.Canceled.
func TestPlanStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sc, err := scenario.ParseScenario([]byte(`{"scenario": 1, "steps": [{"connectors": {"a": 4}}, {"join": ["w1", "w2"]}, {"settle": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scenario.Replay(sc, scenario.ReplayOptions{Ctx: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("replay: got %v, want context.Canceled", err)
	}
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000, Ctx: ctx}
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 3, Connectors: 3, Tasks: 1})
	if _, err := JoinPlan(st, opts, []string{"w4"}); !errors.Is(err, context.Canceled) {
		t.Errorf("join plan: got %v, want context.Canceled", err)
	}
}
