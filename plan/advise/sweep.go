package advise

import (
	"cmp"
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// The sweep: the settings to try and what each costs (sweeprun.go runs
// them).

// DefaultDelayGrid is the default sweep: 0 to 10 minutes, values around the
// restart time (where a returning worker starts to come back within the
// delay) and the current setting.
func DefaultDelayGrid(restartMs, currentMs int64) []int64 {
	grid := []int64{0, 10000, 30000, 60000, 120000, 180000, 300000, 600000,
		wholeSeconds(restartMs / 2), restartMs, wholeSeconds(restartMs + restartMs/4), 2 * restartMs, currentMs}
	seen := map[int64]bool{}
	out := []int64{}
	for _, d := range grid {
		if d < 0 || (d > 600000 && d != currentMs) || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func wholeSeconds(ms int64) int64 { return (ms + 500) / 1000 * 1000 }

// runPool runs n jobs on at most workers goroutines (GOMAXPROCS when 0) and
// returns the first error; ctx cancellation stops handing out jobs.
func runPool(ctx context.Context, workers, n int, do func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := do(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	go func() { wg.Wait(); close(errs) }()
	for e := range errs {
		if err == nil {
			err = e
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// sweepSettings lists every combination, sorted by delay, order, pacing,
// stop, with the current setting always among them.
func sweepSettings(ao AdviseOptions, currentMs int64) ([]Setting, error) {
	delays := ao.DelaysMs
	if delays == nil {
		delays = DefaultDelayGrid(ao.RestartMs, currentMs)
	}
	orders := ao.Orders
	if orders == nil {
		orders = []string{OrderLeaderLast, OrderLeaderFirst}
	}
	pacings := ao.Pacings
	if pacings == nil {
		pacings = []whatif.Pacing{{Mode: whatif.PaceBack}, {Mode: whatif.PaceStable}}
		if ao.GapMs > 0 {
			pacings = append(pacings, whatif.Pacing{Mode: whatif.PaceGap, GapMs: ao.GapMs})
		}
	}
	stops := ao.Stops
	if stops == nil {
		stops = []whatif.Stop{whatif.StopClean, whatif.StopCrash}
	}
	var out []Setting
	add := func(s Setting) {
		for _, o := range out {
			if o.same(s) {
				return
			}
		}
		out = append(out, s)
	}
	for _, d := range delays {
		if d < 0 {
			return nil, field.Errorf("Delays", ": %d is negative", d)
		}
		for _, o := range orders {
			if o != OrderLeaderFirst && o != OrderLeaderLast {
				return nil, field.Errorf("Order", ": want %s or %s, got %q", OrderLeaderFirst, OrderLeaderLast, o)
			}
			for _, p := range pacings {
				for _, st := range stops {
					if _, err := whatif.StopKind(st); err != nil {
						return nil, err
					}
					s := Setting{DelayMs: d, Order: o, Pacing: p.Mode, Stop: st}
					switch p.Mode {
					case whatif.PaceGap:
						g := p.GapMs
						s.GapMs = &g
					case whatif.PaceBack, whatif.PaceStable, "":
						s.Pacing = cmp.Or(p.Mode, whatif.PaceBack)
					default:
						return nil, field.Errorf("Pacing", ": want %s, %s or %s, got %q", whatif.PaceBack, whatif.PaceStable, whatif.PaceGap, p.Mode)
					}
					add(s)
				}
			}
		}
	}
	add(Setting{DelayMs: currentMs, Order: OrderLeaderLast, Pacing: whatif.PaceBack, Stop: whatif.StopClean})
	sort.SliceStable(out, func(i, j int) bool { return settingLess(out[i], out[j]) })
	return out, nil
}

// orderOf resolves a named order to member ids.
func orderOf(state cluster.State, name string) []string {
	last, _ := whatif.RestartOrder(state, nil)
	if name != OrderLeaderFirst || len(last) == 0 {
		return last
	}
	return append([]string{last[len(last)-1]}, last[:len(last)-1]...)
}

// crashVictim is the worker whose crash the failover cost measures: the
// non-leader owning the most tasks (a leader's crash is reassigned at once,
// the new leader remembers nothing); of several such, the first by name
// (HOST:PORT, then member id), so that every run on the same cluster picks
// the same one whatever order the broker lists the members in.
func crashVictim(state cluster.State) string {
	leader := state.LeaderID()
	best, bestName, most := "", "", -1
	namer := state.Namer()
	for _, w := range state.Workers {
		if w.ID == leader && len(state.Workers) > 1 {
			continue
		}
		n, name := len(w.Owned.Tasks), namer.Name(w.ID)
		if n > most || n == most && (name < bestName || name == bestName && w.ID < best) {
			best, bestName, most = w.ID, name, n
		}
	}
	return best
}

func settled(tl *timeline.Timeline) bool {
	for _, n := range tl.Notes {
		if strings.HasPrefix(n, "stopped after") {
			return false
		}
	}
	return len(tl.Summary.NotRunningAtEnd) == 0
}

func rollCost(tl *timeline.Timeline) RollCost {
	s := tl.Summary
	c := RollCost{TaskMsNotRunning: s.TaskMsNotRunning, LongestTaskOutageMs: s.LongestTaskOutageMs, TasksMoved: s.TasksMoved,
		Rounds: s.Rounds, BalancedAfterMs: s.BalancedAfterMs, EndMs: s.EndMs, NotRunningAtEnd: len(s.NotRunningAtEnd)}
	if !settled(tl) && c.NotRunningAtEnd == 0 {
		c.NotRunningAtEnd = -1 // cut off by the round cap
	}
	return c
}

func crashCost(tl *timeline.Timeline) CrashCost {
	s := tl.Summary
	c := CrashCost{TaskMsNotRunning: s.TaskMsNotRunning, Rounds: s.Rounds}
	if settled(tl) {
		v := s.LongestTaskOutageMs
		c.LongestTaskOutageMs = &v
	}
	return c
}
