package advise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// sweep runs the advisor's simulations: one crash failover per delay, then
// one rolling restart per setting, on a pool of goroutines. Each delay's
// starting point (the simulator seeded with the cluster) is built once and
// copied for every simulation of that delay.
//
// With shownOnly, a roll stops as soon as it is proven that its figures
// appear nowhere in the table, the verdict or the recommendation: its task
// seconds so far already exceed, by a finished roll's total, what it would
// need to be on the front, recommended, or its delay's cheapest roll.
// Task seconds only grow, so the proof holds whatever the rest of the roll
// would have done; the output is the same as the full sweep's.
type sweep struct {
	sweepInput
	ctx     context.Context
	current int // index of the current setting

	seedsMu sync.Mutex
	seeds   map[int64]*seedOnce

	mu       sync.Mutex
	rolls    []RollCost
	finished []bool // the roll ran to its end
	cut      []bool // the roll stopped early, proven not shown
	crashes  map[int64]CrashCost
	limits   []atomic.Int64 // per roll: its cutoff in task-ms (MaxInt64 = none)
	hasLast  map[int64]bool // delays swept with the leader-last order
	// sameRoll holds, per way of rolling (order, pacing, stop), a roll's
	// costs whose rounds never depended on the delay: every delay's roll
	// of that way is the same, so it is run once.
	sameRoll map[rollWay]RollCost
	// delayFree: the starting point does not depend on the delay (no
	// pending delay read from the cluster), so sameRoll may be used.
	delayFree bool
	shared    int // rolls taken from sameRoll
}

// sweepInput is what the sweep is asked to run.
type sweepInput struct {
	state    cluster.State
	opts     timeline.Options
	ao       AdviseOptions
	coop     string              // the cooperative protocol simulated
	settings []Setting           // one roll each
	orders   map[string][]string // restart order by Order*
	crashed  string              // the worker whose crash each delay is tried with
}

// rollWay is a setting without its delay.
type rollWay struct {
	order  string
	pacing whatif.PaceMode
	stop   whatif.Stop
	gapMs  int64
}

func wayOf(s Setting) rollWay {
	w := rollWay{order: s.Order, pacing: s.Pacing, stop: s.Stop}
	if s.GapMs != nil {
		w.gapMs = *s.GapMs
	}
	return w
}

type seedOnce struct {
	once sync.Once
	seed *timeline.Seed
	err  error
	left int // the delay's simulations not yet done
}

func newSweep(ctx context.Context, in sweepInput, current Setting) *sweep {
	settings, state := in.settings, in.state
	sw := &sweep{sweepInput: in, ctx: ctx, current: -1, seeds: map[int64]*seedOnce{},
		rolls: make([]RollCost, len(settings)), finished: make([]bool, len(settings)), cut: make([]bool, len(settings)),
		crashes: map[int64]CrashCost{}, limits: make([]atomic.Int64, len(settings)), hasLast: map[int64]bool{},
		sameRoll: map[rollWay]RollCost{}, delayFree: state.Pending == nil || state.Pending.DelayMs == 0}
	for i, s := range settings {
		sw.limits[i].Store(math.MaxInt64)
		if s.same(current) {
			sw.current = i
		}
		if s.Order != OrderLeaderFirst {
			sw.hasLast[s.DelayMs] = true
		}
	}
	return sw
}

// seedJobs counts n more simulations of the delay.
func (sw *sweep) seedJobs(delay int64, n int) {
	so := sw.seeds[delay]
	if so == nil {
		so = &seedOnce{}
		sw.seeds[delay] = so
	}
	so.left += n
}

// seedDone counts one simulation of the delay done; after its last, the
// starting point is let go (a thousand workers' is megabytes).
func (sw *sweep) seedDone(delay int64) {
	sw.seedsMu.Lock()
	defer sw.seedsMu.Unlock()
	if so := sw.seeds[delay]; so != nil {
		if so.left--; so.left == 0 {
			delete(sw.seeds, delay)
		}
	}
}

// seed is the starting point of the delay's simulations, built on first use.
func (sw *sweep) seed(delay int64) (*timeline.Seed, error) {
	sw.seedsMu.Lock()
	so := sw.seeds[delay]
	sw.seedsMu.Unlock()
	so.once.Do(func() {
		o := sw.opts
		o.MaxDelayMs = delay
		so.seed, so.err = timeline.NewSeed(sw.state, o, sw.coop)
	})
	return so.seed, so.err
}

// simulate plays events from the delay's starting point: a copy of its
// seed, or with fresh a simulator of its own (timeline.RunContext).
func (sw *sweep) simulate(delay int64, events []timeline.Event, cutoff func() int64) (*timeline.Timeline, error) {
	if sw.ao.fresh {
		o := sw.opts
		o.MaxDelayMs = delay
		return timeline.RunContext(sw.ctx, sw.state, o, sw.coop, events, true)
	}
	seed, err := sw.seed(delay)
	if err != nil {
		return nil, err
	}
	return seed.RunCopy(sw.ctx, events, cutoff)
}

// run runs every simulation: the crash failovers first (the cutoffs need
// their outages), then the rolls in the order of the settings.
func (sw *sweep) run() error {
	type job struct {
		roll  int // index into settings, or -1
		delay int64
	}
	// Delay by delay (so that few starting points are held at once): the
	// crash failover (the cutoffs need its outage), then the rolls in the
	// order of the settings, whose first of a delay is its likely cheapest
	// (leader last, next when back, clean stops: what the others of the
	// delay are cut against). With cutting off, the order changes nothing.
	var jobs []job
	for i, s := range sw.settings {
		if i == 0 || sw.settings[i-1].DelayMs != s.DelayMs {
			jobs = append(jobs, job{roll: -1, delay: s.DelayMs})
			sw.seedJobs(s.DelayMs, 1)
		}
		jobs = append(jobs, job{roll: i, delay: s.DelayMs})
		sw.seedJobs(s.DelayMs, 1)
	}
	var done int
	return runPool(sw.ctx, sw.ao.Workers, len(jobs), func(n int) error {
		j := jobs[n]
		var err error
		if j.roll < 0 {
			err = sw.runCrash(j.delay)
		} else {
			err = sw.runRoll(j.roll)
		}
		if err != nil {
			return err
		}
		sw.seedDone(j.delay)
		if sw.ao.Progress != nil {
			sw.mu.Lock()
			done++
			sw.ao.Progress(done, len(jobs))
			sw.mu.Unlock()
		}
		return nil
	})
}

func (sw *sweep) runCrash(delay int64) error {
	tl, err := sw.simulate(delay, []timeline.Event{{Kind: timeline.EventCrash, Worker: sw.crashed}}, nil)
	if err == nil {
		sw.mu.Lock()
		sw.crashes[delay] = crashCost(tl)
		sw.updateLimits()
		sw.mu.Unlock()
		return nil
	}
	return fmt.Errorf("crash of %s, delay %s: %w", sw.state.Label(sw.crashed), whatif.Millis(delay), err)
}

func (sw *sweep) runRoll(i int) error {
	s := sw.settings[i]
	sw.mu.Lock()
	same, ok := sw.sameRoll[wayOf(s)]
	if ok {
		sw.rolls[i], sw.finished[i] = same, true
		sw.shared++
		sw.updateLimits()
	}
	sw.mu.Unlock()
	if ok {
		return nil
	}
	kind, _ := whatif.StopKind(s.Stop)
	pace := whatif.Pacing{Mode: s.Pacing}
	if s.GapMs != nil {
		pace.GapMs = *s.GapMs
	}
	var cutoff func() int64
	if sw.ao.ShownOnly && i != sw.current {
		cutoff = sw.limits[i].Load
	}
	tl, err := sw.simulate(s.DelayMs, whatif.RollEvents(sw.state, sw.orders[s.Order], sw.ao.RestartMs, sw.opts.Restarts, kind, pace), cutoff)
	if err != nil && !errors.Is(err, timeline.ErrCutOff) {
		return fmt.Errorf("rolling restart %s: %w", s, err)
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if err != nil {
		sw.cut[i] = true
		return nil
	}
	sw.rolls[i], sw.finished[i] = rollCost(tl), true
	if sw.delayFree && !tl.DelayRead && !sw.ao.fresh {
		sw.sameRoll[wayOf(s)] = sw.rolls[i]
	}
	sw.updateLimits()
	return nil
}

// candidate is roll i as decide sees it (finished rolls only).
func (sw *sweep) candidate(i int) (Candidate, bool) {
	crash, ok := sw.crashes[sw.settings[i].DelayMs]
	return Candidate{Setting: sw.settings[i], Roll: sw.rolls[i], Crash: crash}, ok && sw.finished[i]
}

// updateLimits sets every unfinished roll's cutoff from the rolls finished
// so far (called with mu held). A roll whose task-ms pass its cutoff is
//   - beaten by a finished roll b (so not on the front, and beating no
//     setting b does not also beat): b settles, its crash outage is no
//     longer, and its task-ms are fewer;
//   - not recommended: a finished feasible roll has fewer task-ms, or its
//     own crash outage makes it infeasible;
//   - not its delay's cheapest: leader first where the delay is also swept
//     leader last, or a finished settled roll of the same delay and order
//     class has fewer task-ms;
//
// and never the current setting.
func (sw *sweep) updateLimits() {
	if !sw.ao.ShownOnly {
		return
	}
	const none, any = int64(math.MaxInt64), int64(math.MinInt64)
	for i, s := range sw.settings {
		if sw.finished[i] || sw.cut[i] || i == sw.current {
			continue
		}
		crash, known := sw.crashes[s.DelayMs]
		if !known {
			continue
		}
		front, rec, cheapest := none, none, none
		if crash.LongestTaskOutageMs == nil {
			front, rec = any, any
		} else if sw.ao.MaxDowntimeMs > 0 && *crash.LongestTaskOutageMs > sw.ao.MaxDowntimeMs {
			rec = any
		}
		if s.Order == OrderLeaderFirst && sw.hasLast[s.DelayMs] {
			cheapest = any
		}
		for j := range sw.settings {
			b, ok := sw.candidate(j)
			if !ok {
				continue
			}
			bRoll, bCrash, bOK := b.costs()
			if bOK && crash.LongestTaskOutageMs != nil && bCrash <= *crash.LongestTaskOutageMs {
				front = min(front, bRoll)
			}
			if feasible(b, sw.ao) {
				rec = min(rec, bRoll)
			}
			if b.DelayMs == s.DelayMs && (b.Order == OrderLeaderFirst) == (s.Order == OrderLeaderFirst) && b.Roll.NotRunningAtEnd == 0 {
				cheapest = min(cheapest, b.Roll.TaskMsNotRunning)
			}
		}
		sw.limits[i].Store(max(front, rec, cheapest))
	}
}
