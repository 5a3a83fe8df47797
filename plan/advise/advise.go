// Package advise is the advisor (`plan advise`): it sweeps delays and
// rolling-restart orders through the what-if plans, keeps the Pareto front
// and recommends a setting.
package advise

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// Restart orders the advisor compares.
const (
	OrderLeaderLast  = "leader-last"  // members in group order, the leader last (plan rolling-restart's default)
	OrderLeaderFirst = "leader-first" // the leader first, then the others in group order
)

// AdviseOptions are the advisor's inputs beyond the cluster and PlanOptions
// (whose MaxDelayMs is the current setting).
type AdviseOptions struct {
	RestartMs     int64
	DelaysMs      []int64         // nil = DefaultDelayGrid
	Orders        []string        // nil = both orders
	Pacings       []whatif.Pacing // nil = back and stable (and gap when GapMs > 0)
	GapMs         int64           // the fixed gap of PaceGap; 0 = no gap pacing by default
	Stops         []string        // nil = clean and crash
	MaxDowntimeMs int64           // a crash's longest outage may not exceed this; 0 = no limit
	MaxMoves      int             // a roll may move at most this many tasks; < 0 = no limit
	Workers       int             // parallel simulations; 0 = GOMAXPROCS
	// Progress, when set, is told after each simulation how many of the
	// sweep's are done (calls come one at a time, done rising to total).
	Progress func(done, total int)
}

// AdviseResult is the output of `plan advise`.
type AdviseResult struct {
	Plan        string             `json:"plan"` // "advise"
	Source      string             `json:"source"`
	Protocol    string             `json:"protocol"`    // the group's protocol
	Simulated   string             `json:"simulated"`   // the cooperative protocol the sweep runs
	Assumptions whatif.Assumptions `json:"assumptions"` // max_delay_ms = the current setting
	CrashWorker string             `json:"crash_worker"`
	// CrashWorkerName is CrashWorker's HOST:PORT name, as flags take it.
	CrashWorkerName string      `json:"crash_worker_name"`
	Constraints     Constraints `json:"constraints"`
	Current         Setting     `json:"current"`
	// Verdict: current_on_front, recommendation_beats_current or
	// current_off_front (beaten, but not by a setting within the constraints).
	Verdict     string            `json:"verdict"`
	Recommended *Candidate        `json:"recommended"`
	Why         string            `json:"why"`
	Candidates  []Candidate       `json:"candidates"` // every setting swept, by delay, order, pacing, stop
	Labels      map[string]string `json:"labels"`
	Notes       []string          `json:"notes"`
}

// Constraints are the user's limits on a recommendation (null = none).
type Constraints struct {
	MaxDowntimeMs *int64 `json:"max_downtime_ms"`
	MaxMoves      *int   `json:"max_moves"`
}

// Setting is one combination the advisor sweeps.
type Setting struct {
	DelayMs int64  `json:"delay_ms"`
	Order   string `json:"order"`
	Pacing  string `json:"pacing"`
	GapMs   *int64 `json:"gap_ms"` // pacing gap only
	Stop    string `json:"stop"`
}

// Candidate is a setting with its costs and marks.
type Candidate struct {
	Setting
	Roll        RollCost  `json:"roll"`
	Crash       CrashCost `json:"crash"`
	OnFront     bool      `json:"on_front"`    // no other setting is at least as good on both costs and better on one
	Feasible    bool      `json:"feasible"`    // within --max-downtime and --max-moves, and the roll settles
	IsCurrent   bool      `json:"current"`     // the cluster's delay, leader last, next when back, clean stops
	Recommended bool      `json:"recommended"` // the advisor's pick
}

// RollCost is what the rolling restart costs under the cooperative protocol.
type RollCost struct {
	TaskMsNotRunning    int64  `json:"task_ms_not_running"`
	LongestTaskOutageMs int64  `json:"longest_task_outage_ms"`
	TasksMoved          int    `json:"tasks_moved"`
	Rounds              int    `json:"rounds"`
	BalancedAfterMs     *int64 `json:"balanced_after_ms"`
	EndMs               int64  `json:"end_ms"`
	NotRunningAtEnd     int    `json:"not_running_at_end"` // pieces never restarted (the roll does not settle)
}

// CrashCost is the failover when one worker crashes and does not return.
type CrashCost struct {
	// LongestTaskOutageMs is null when some lost work is never reassigned.
	LongestTaskOutageMs *int64 `json:"longest_task_outage_ms"`
	TaskMsNotRunning    int64  `json:"task_ms_not_running"`
	Rounds              int    `json:"rounds"`
}

// Verdicts of the advisor.
const (
	VerdictOnFront = "current_on_front"
	VerdictBeaten  = "recommendation_beats_current"
	VerdictOff     = "current_off_front"
)

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

// Advise sweeps the delay, the restart order, the pacing and the stop mode,
// running every rolling restart and the crash failover of every delay on the
// same engine as the other plans, and recommends a setting.
func Advise(ctx context.Context, state cluster.State, opts timeline.Options, ao AdviseOptions) (*AdviseResult, error) {
	if ao.RestartMs < 0 {
		return nil, field.Errorf("RestartTime", ": must not be negative")
	}
	if len(state.Workers) == 0 {
		return nil, fmt.Errorf("the cluster has no workers: nothing to restart")
	}
	// The bounds first, before anything that grows with the cluster.
	settings, err := sweepSettings(ao, opts.MaxDelayMs)
	if err != nil {
		return nil, err
	}
	if err := checkAdviseBounds(state, opts, ao, settings); err != nil {
		return nil, err
	}
	group, coop := timeline.EffectiveProtocol(state, opts)
	if opts.MaxRounds == 0 {
		opts.MaxRounds = whatif.RollRoundCap(len(state.Workers))
	}
	base := whatif.NewResult("advise", state, opts, "")
	res := &AdviseResult{
		Plan: "advise", Source: state.Source, Protocol: group, Simulated: coop,
		Assumptions: base.Assumptions, Labels: map[string]string{}, Notes: base.Notes,
		Candidates: []Candidate{},
	}
	res.Assumptions.RestartTimeMs = &ao.RestartMs
	for _, w := range state.Workers {
		res.Labels[w.ID] = state.Label(w.ID)
	}
	if group == "eager" {
		res.Notes = append(res.Notes, fmt.Sprintf("the group runs eager, where scheduled.rebalance.max.delay.ms has no effect: the figures are for %s, the protocol the group would run after switching", coop))
	}
	if ao.MaxDowntimeMs > 0 {
		v := ao.MaxDowntimeMs
		res.Constraints.MaxDowntimeMs = &v
	}
	if ao.MaxMoves >= 0 {
		v := ao.MaxMoves
		res.Constraints.MaxMoves = &v
	}
	res.Current = Setting{DelayMs: opts.MaxDelayMs, Order: OrderLeaderLast, Pacing: whatif.PaceBack, Stop: whatif.StopClean}

	orders := map[string][]string{}
	for _, o := range []string{OrderLeaderLast, OrderLeaderFirst} {
		orders[o] = orderOf(state, o)
	}
	for _, s := range settings {
		if s.Order == OrderLeaderFirst {
			res.Notes = append(res.Notes, "leader first: connectscope lets the first remaining member lead, and that is the next to restart, so every restart is a leader's and its work is reassigned at once; the broker picks the real next leader, so only the first step is certain")
			break
		}
	}
	crashed := crashVictim(state)
	res.CrashWorker, res.CrashWorkerName = crashed, state.Name(crashed)
	res.Assumptions.Order = state.Names(orders[OrderLeaderLast]) // the current way of rolling

	// One job per roll and one per delay's crash failover, run by a
	// bounded pool; each job checks ctx between rounds.
	type job struct {
		roll  int // index into settings, or -1
		delay int64
	}
	jobs := []job{}
	delays := []int64{}
	seenDelay := map[int64]bool{}
	for i, s := range settings {
		jobs = append(jobs, job{roll: i})
		if !seenDelay[s.DelayMs] {
			seenDelay[s.DelayMs] = true
			delays = append(delays, s.DelayMs)
		}
	}
	for _, d := range delays {
		jobs = append(jobs, job{roll: -1, delay: d})
	}
	// Only the costs are kept: a big cluster's timelines run to hundreds of
	// megabytes together.
	rolls := make([]RollCost, len(settings))
	crashes := map[int64]CrashCost{}
	var mu sync.Mutex
	run := func(j job) error {
		o := opts
		if j.roll < 0 {
			o.MaxDelayMs = j.delay
			tl, err := timeline.RunContext(ctx, state, o, coop, []timeline.Event{{Kind: timeline.EventCrash, Worker: crashed}}, true)
			if err != nil {
				return fmt.Errorf("crash of %s, delay %s: %w", state.Label(crashed), whatif.Millis(j.delay), err)
			}
			mu.Lock()
			crashes[j.delay] = crashCost(tl)
			mu.Unlock()
			return nil
		}
		s := settings[j.roll]
		o.MaxDelayMs = s.DelayMs
		kind, _ := whatif.StopKind(s.Stop)
		pace := whatif.Pacing{Mode: s.Pacing}
		if s.GapMs != nil {
			pace.GapMs = *s.GapMs
		}
		tl, err := timeline.RunContext(ctx, state, o, coop, whatif.RollEvents(state, orders[s.Order], ao.RestartMs, kind, pace), true)
		if err != nil {
			return fmt.Errorf("rolling restart %s: %w", s, err)
		}
		rolls[j.roll] = rollCost(tl)
		return nil
	}
	var done int
	if err := runPool(ctx, ao.Workers, len(jobs), func(i int) error {
		if err := run(jobs[i]); err != nil {
			return err
		}
		if ao.Progress != nil {
			mu.Lock()
			done++
			ao.Progress(done, len(jobs))
			mu.Unlock()
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for i, s := range settings {
		c := Candidate{Setting: s, Roll: rolls[i], Crash: crashes[s.DelayMs]}
		c.IsCurrent = s.same(res.Current)
		res.Candidates = append(res.Candidates, c)
	}
	decide(res, ao)
	return res, nil
}

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

func (s Setting) same(o Setting) bool {
	return s.DelayMs == o.DelayMs && s.Order == o.Order && s.Pacing == o.Pacing && s.Stop == o.Stop &&
		(s.GapMs == nil) == (o.GapMs == nil) && (s.GapMs == nil || *s.GapMs == *o.GapMs)
}

func (s Setting) String() string {
	return fmt.Sprintf("delay %s, %s, %s, %s stops", whatif.Millis(s.DelayMs), orderText(s.Order), paceText(s), s.Stop)
}

func orderText(o string) string {
	if o == OrderLeaderFirst {
		return "leader first"
	}
	return "leader last"
}

func paceText(s Setting) string {
	switch s.Pacing {
	case whatif.PaceStable:
		return "next when the group is stable"
	case whatif.PaceGap:
		if s.GapMs != nil {
			return "next " + whatif.Millis(*s.GapMs) + " after the last is back"
		}
	}
	return "next as soon as the last is back"
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
		stops = []string{whatif.StopClean, whatif.StopCrash}
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
						s.Pacing = cmpOr(p.Mode, whatif.PaceBack)
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

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func settingLess(a, b Setting) bool {
	if a.DelayMs != b.DelayMs {
		return a.DelayMs < b.DelayMs
	}
	rank := map[string]int{OrderLeaderLast: 0, OrderLeaderFirst: 1, whatif.PaceBack: 0, whatif.PaceStable: 1, whatif.PaceGap: 2, whatif.StopClean: 0, whatif.StopCrash: 1}
	if a.Order != b.Order {
		return rank[a.Order] < rank[b.Order]
	}
	if a.Pacing != b.Pacing {
		return rank[a.Pacing] < rank[b.Pacing]
	}
	return rank[a.Stop] < rank[b.Stop]
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
	for _, w := range state.Workers {
		if w.ID == leader && len(state.Workers) > 1 {
			continue
		}
		n, name := len(w.Owned.Tasks), state.Name(w.ID)
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

// costs returns the two costs compared, with ok false for a setting whose
// roll or failover never brings all work back (worse than any other).
func (c Candidate) costs() (roll, crash int64, ok bool) {
	if c.Roll.NotRunningAtEnd != 0 || c.Crash.LongestTaskOutageMs == nil {
		return 0, 0, false
	}
	return c.Roll.TaskMsNotRunning, *c.Crash.LongestTaskOutageMs, true
}

// beats reports that a is at least as good as b on both costs and better on one.
func beats(a, b Candidate) bool {
	ar, ac, aok := a.costs()
	br, bc, bok := b.costs()
	if !aok {
		return false
	}
	if !bok {
		return true
	}
	return ar <= br && ac <= bc && (ar < br || ac < bc)
}

// decide marks the front, the feasible settings, the recommendation and the verdict.
func decide(res *AdviseResult, ao AdviseOptions) {
	cs := res.Candidates
	for i := range cs {
		cs[i].OnFront = true
		for j := range cs {
			if i != j && beats(cs[j], cs[i]) {
				cs[i].OnFront = false
				break
			}
		}
		if _, _, ok := cs[i].costs(); !ok {
			cs[i].OnFront = false
		}
		cs[i].Feasible = feasible(cs[i], ao)
	}
	current := -1
	for i := range cs {
		if cs[i].IsCurrent {
			current = i
		}
	}
	best := -1
	for i := range cs {
		if !cs[i].Feasible {
			continue
		}
		if best < 0 || better(cs[i], cs[best], res.Current) {
			best = i
		}
	}
	res.Verdict = VerdictOff
	if current >= 0 && cs[current].OnFront {
		res.Verdict = VerdictOnFront
	}
	if best < 0 {
		res.Why = "no setting swept meets " + constraintText(res.Constraints) + "; relax a limit or sweep other delays (--delays)"
		return
	}
	cs[best].Recommended = true
	rec := cs[best]
	res.Recommended = &rec
	cur := cs[current]
	if res.Verdict != VerdictOnFront && beats(rec, cur) {
		res.Verdict = VerdictBeaten
	}
	res.Why = whyText(rec, cur, res)
}

func feasible(c Candidate, ao AdviseOptions) bool {
	_, crash, ok := c.costs()
	if !ok {
		return false
	}
	if ao.MaxDowntimeMs > 0 && crash > ao.MaxDowntimeMs {
		return false
	}
	if ao.MaxMoves >= 0 && c.Roll.TasksMoved > ao.MaxMoves {
		return false
	}
	return true
}

// better orders feasible settings: fewest roll task-seconds, then the
// shorter crash outage, fewer moves, fewer rounds, then the one closest to
// the current way of rolling (same order, pacing, stop, nearest delay).
func better(a, b Candidate, cur Setting) bool {
	ar, ac, _ := a.costs()
	br, bc, _ := b.costs()
	if ar != br {
		return ar < br
	}
	if ac != bc {
		return ac < bc
	}
	if a.Roll.TasksMoved != b.Roll.TasksMoved {
		return a.Roll.TasksMoved < b.Roll.TasksMoved
	}
	if a.Roll.Rounds != b.Roll.Rounds {
		return a.Roll.Rounds < b.Roll.Rounds
	}
	like := func(s Setting) int {
		n := 0
		if s.Order == cur.Order {
			n++
		}
		if s.Pacing == cur.Pacing {
			n++
		}
		if s.Stop == cur.Stop {
			n++
		}
		return n
	}
	if la, lb := like(a.Setting), like(b.Setting); la != lb {
		return la > lb
	}
	return absDiff(a.DelayMs, cur.DelayMs) < absDiff(b.DelayMs, cur.DelayMs)
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

func constraintText(c Constraints) string {
	parts := []string{}
	if c.MaxDowntimeMs != nil {
		parts = append(parts, "--max-downtime "+whatif.Millis(*c.MaxDowntimeMs))
	}
	if c.MaxMoves != nil {
		parts = append(parts, fmt.Sprintf("--max-moves %d", *c.MaxMoves))
	}
	if len(parts) == 0 {
		return "the constraints (every roll or failover leaves work down)"
	}
	return strings.Join(parts, " and ")
}

func whyText(rec, cur Candidate, res *AdviseResult) string {
	figures := fmt.Sprintf("the roll costs %s task-s (current %s) and a crash of %s leaves a task down at most %s (current %s)",
		whatif.TaskSeconds(rec.Roll.TaskMsNotRunning), whatif.TaskSeconds(cur.Roll.TaskMsNotRunning), res.Labels[res.CrashWorker],
		outageText(rec.Crash.LongestTaskOutageMs), outageText(cur.Crash.LongestTaskOutageMs))
	scope := "the fewest roll task-seconds of every setting swept"
	if res.Constraints.MaxDowntimeMs != nil || res.Constraints.MaxMoves != nil {
		scope = "the fewest roll task-seconds within " + constraintText(res.Constraints)
	}
	switch {
	case rec.IsCurrent:
		return fmt.Sprintf("Keep %s: it has %s; %s.", rec.Setting, scope, figures)
	case beats(rec, cur):
		return fmt.Sprintf("Use %s: it beats the current setting on both costs and has %s; %s, with %d tasks moved (current %d).", rec.Setting, scope, figures, rec.Roll.TasksMoved, cur.Roll.TasksMoved)
	}
	return fmt.Sprintf("Use %s: it has %s; %s, with %d tasks moved (current %d).", rec.Setting, scope, figures, rec.Roll.TasksMoved, cur.Roll.TasksMoved)
}

func outageText(ms *int64) string {
	if ms == nil {
		return "forever (lost work is never reassigned)"
	}
	return whatif.Millis(*ms)
}
