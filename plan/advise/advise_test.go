package advise

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

func classicState() cluster.State {
	return cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
}

func classicOpts() timeline.Options {
	return timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
}

func classicAdvice(t *testing.T, ao AdviseOptions) *AdviseResult {
	t.Helper()
	ao.RestartMs = 90000
	res, err := Advise(context.Background(), classicState(), classicOpts(), ao)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDefaultDelayGrid(t *testing.T) {
	g := DefaultDelayGrid(90000, 420000)
	for _, want := range []int64{0, 45000, 90000, 113000, 180000, 300000, 420000, 600000} {
		if !slices.Contains(g, want) {
			t.Errorf("grid %v lacks %d", g, want)
		}
	}
	if !slices.IsSorted(g) || g[len(g)-1] != 600000 {
		t.Errorf("grid %v: want sorted, up to 10 minutes", g)
	}
	if g := DefaultDelayGrid(90000, 900000); g[len(g)-1] != 900000 {
		t.Errorf("a current delay above 10 minutes is swept too: %v", g)
	}
}

// The figures of the sweep are those of plan rolling-restart and plan leave
// for the same settings: one model, not two.
func TestAdviseAgreesWithThePlans(t *testing.T) {
	res := classicAdvice(t, AdviseOptions{MaxMoves: -1, DelaysMs: []int64{0, 90000, 300000}})
	st := classicState()
	for _, c := range res.Candidates {
		if c.Order != OrderLeaderLast || c.Pacing != whatif.PaceBack {
			continue
		}
		opts := classicOpts()
		opts.MaxDelayMs = c.DelayMs
		roll, err := whatif.RollingRestartPlan(st, opts, 90000, c.Stop, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := roll.Branches[0].Cooperative.Summary
		if s.TaskMsNotRunning != c.Roll.TaskMsNotRunning || s.TasksMoved != c.Roll.TasksMoved || s.Rounds != c.Roll.Rounds || s.LongestTaskOutageMs != c.Roll.LongestTaskOutageMs {
			t.Errorf("%s: advise %+v, rolling-restart %d task-ms, %d moved, %d rounds", c.Setting, c.Roll, s.TaskMsNotRunning, s.TasksMoved, s.Rounds)
		}
		leave, err := whatif.LeavePlan(st, opts, res.CrashWorker, whatif.StopCrash, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := leave.Branches[0].Cooperative.Summary.LongestTaskOutageMs; c.Crash.LongestTaskOutageMs == nil || *c.Crash.LongestTaskOutageMs != got {
			t.Errorf("%s: crash outage %v, plan leave %d", c.Setting, c.Crash.LongestTaskOutageMs, got)
		}
	}
	// The README's figures for the classic case.
	want := map[int64]int64{0: 270000, 90000: 4890000, 300000: 11784000}
	for _, c := range res.Candidates {
		if c.Order == OrderLeaderLast && c.Pacing == whatif.PaceBack && c.Stop == whatif.StopClean && c.Roll.TaskMsNotRunning != want[c.DelayMs] {
			t.Errorf("delay %d: %d task-ms, the README says %d", c.DelayMs, c.Roll.TaskMsNotRunning, want[c.DelayMs])
		}
	}
}

// Every setting off the front is beaten by one on it; none on the front is
// beaten by any.
func TestAdviseFront(t *testing.T) {
	res := classicAdvice(t, AdviseOptions{MaxMoves: -1})
	for _, c := range res.Candidates {
		beaten := false
		for _, o := range res.Candidates {
			if beats(o, c) {
				beaten = true
			}
		}
		if c.OnFront == beaten {
			t.Errorf("%s: on front %v, beaten %v", c.Setting, c.OnFront, beaten)
		}
	}
	if res.Verdict != VerdictBeaten || res.Recommended == nil || res.Recommended.DelayMs != 0 {
		t.Errorf("classic case: verdict %s, recommended %+v", res.Verdict, res.Recommended)
	}
}

// The limits decide the pick: --max-moves 20 excludes every roll that deals
// the lost work out and back; --max-downtime 1m excludes delays over ~48 s.
func TestAdviseConstraints(t *testing.T) {
	res := classicAdvice(t, AdviseOptions{MaxMoves: 20})
	if res.Recommended == nil || res.Recommended.Roll.TasksMoved > 20 {
		t.Fatalf("--max-moves 20: %+v", res.Recommended)
	}
	for _, c := range res.Candidates {
		if c.Feasible && c.Roll.TasksMoved > 20 {
			t.Errorf("%s feasible with %d moves", c.Setting, c.Roll.TasksMoved)
		}
		if c.Feasible && c.Roll.TaskMsNotRunning < res.Recommended.Roll.TaskMsNotRunning {
			t.Errorf("%s is feasible and cheaper than the pick", c.Setting)
		}
	}
	res = classicAdvice(t, AdviseOptions{MaxMoves: 20, MaxDowntimeMs: 60000})
	if res.Recommended != nil {
		t.Errorf("no delay both moves <= 20 tasks and fails over within 1m here, got %s", res.Recommended.Setting)
	}
	if res.Why == "" {
		t.Error("no reason given for the missing recommendation")
	}
}

// Pacing by stability waits for the delay before the next stop; a fixed gap
// puts that much time between a return and the next stop.
func TestAdvisePacing(t *testing.T) {
	res := classicAdvice(t, AdviseOptions{MaxMoves: -1, DelaysMs: []int64{300000}, Orders: []string{OrderLeaderLast}, Stops: []whatif.Stop{whatif.StopClean},
		Pacings: []whatif.Pacing{{Mode: whatif.PaceBack}, {Mode: whatif.PaceStable}, {Mode: whatif.PaceGap, GapMs: 60000}}})
	end := map[whatif.PaceMode]int64{}
	for _, c := range res.Candidates {
		end[c.Pacing] = c.Roll.EndMs
	}
	// back: six restarts of 90 s back to back; gap: five gaps of 60 s more;
	// stable: each of the first five waits for its delay to end.
	if end[whatif.PaceGap]-end[whatif.PaceBack] != 5*60000 {
		t.Errorf("gap roll ends %d ms after the back-to-back one, want 300000", end[whatif.PaceGap]-end[whatif.PaceBack])
	}
	if end[whatif.PaceStable] < 5*300000 {
		t.Errorf("stable roll ends at %d ms, before five delays of 5 minutes", end[whatif.PaceStable])
	}
}

// Cancelling the context stops a big sweep within a second.
func TestAdviseStopsOnCancel(t *testing.T) {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 100, Connectors: 1000, Tasks: 3})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Advise(ctx, st, classicOpts(), AdviseOptions{RestartMs: 90000, MaxMoves: -1})
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("stopped %s after the cancel, want under 1s", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5 s after the cancel")
	}
}

// A sweep beyond MaxAdviseWork is refused before any simulation runs; one
// within it reports its progress, one simulation at a time, up to the total.
func TestAdviseBoundAndProgress(t *testing.T) {
	big := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1500, Connectors: 10000, Tasks: 2})
	ran := 0
	_, err := Advise(context.Background(), big, classicOpts(), AdviseOptions{RestartMs: 90000, MaxMoves: -1, Progress: func(int, int) { ran++ }})
	var be *bounds.Error
	if !errors.As(err, &be) || ran != 0 {
		t.Fatalf("1,500 workers x 30,000 pieces, default sweep: %v after %d simulations, want a bounds.Error before any", err, ran)
	}
	if !strings.Contains(be.Msg, "--delays") {
		t.Errorf("the refusal does not say how to narrow the sweep: %s", be.Msg)
	}
	// The same cluster with one setting is within the bound.
	if err := checkAdviseBounds(big, classicOpts(), AdviseOptions{RestartMs: 90000}, []Setting{{DelayMs: 300000}}); err != nil {
		t.Errorf("one setting refused: %v", err)
	}
	// The default sweep of 1,000 workers and 10,000 connectors and tasks
	// is within it: 44 leader-last rolls and 4 leader-first ones, run once
	// for all 11 delays.
	grid := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1000, Connectors: 5000, Tasks: 1})
	ao := AdviseOptions{RestartMs: 90000, MaxMoves: -1}
	settings, err := sweepSettings(ao, classicOpts().MaxDelayMs)
	if err != nil {
		t.Fatal(err)
	}
	if n := adviseRolls(grid, settings); n != 48 || len(settings) != 88 {
		t.Errorf("%d settings, %d rolls simulated: want 88 and 48", len(settings), n)
	}
	if err := checkAdviseBounds(grid, classicOpts(), ao, settings); err != nil {
		t.Errorf("default sweep of 1,000 workers, 10,000 pieces refused: %v", err)
	}
	if err := checkAdviseBounds(cluster.SyntheticState(cluster.SyntheticSpec{Workers: 1000, Connectors: 10000, Tasks: 2}), classicOpts(), ao, settings); err != nil {
		t.Errorf("default sweep of 1,000 workers, 30,000 pieces (1.5 billion) refused: %v", err)
	}
	// A delay pending when the cluster was read makes every roll its own.
	grid.Pending = &cluster.Pending{DelayMs: 60000}
	if n := adviseRolls(grid, settings); n != 88 {
		t.Errorf("with a pending delay, %d rolls simulated, want all 88", n)
	}
	var seen []int
	total := 0
	res, err := Advise(context.Background(), classicState(), classicOpts(), AdviseOptions{RestartMs: 90000, MaxMoves: -1, Progress: func(done, n int) {
		seen = append(seen, done)
		total = n
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(res.Candidates) + len(DefaultDelayGrid(90000, classicOpts().MaxDelayMs)); total != want || len(seen) != want {
		t.Fatalf("progress: %d calls of total %d, want %d (one per roll and per delay's crash)", len(seen), total, want)
	}
	for i, d := range seen {
		if d != i+1 {
			t.Fatalf("progress counts %v, want 1..%d in order", seen, total)
		}
	}
}

func TestAdviseProgressLine(t *testing.T) {
	var b strings.Builder
	progress, done := AdviseProgressLine(&b)
	progress(1, 3)
	progress(3, 3)
	done()
	out := b.String()
	if !strings.Contains(out, "\rplan advise: 1/3 simulations") || !strings.Contains(out, "\rplan advise: 3/3 simulations") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress line %q", out)
	}
	var quiet strings.Builder
	_, done = AdviseProgressLine(&quiet)
	done()
	if quiet.Len() != 0 {
		t.Errorf("a sweep that reported nothing still wrote %q", quiet.String())
	}
}
