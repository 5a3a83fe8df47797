// Package advise is the advisor (`plan advise`): it sweeps delays and
// rolling-restart orders through the what-if plans, keeps the Pareto front
// and recommends a setting.
package advise

import (
	"context"
	"fmt"

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
	Stops         []whatif.Stop   // nil = clean and crash
	MaxDowntimeMs int64           // a crash's longest outage may not exceed this; 0 = no limit
	MaxMoves      int             // a roll may move at most this many tasks; < 0 = no limit
	Workers       int             // parallel simulations; 0 = GOMAXPROCS
	// ShownOnly says the caller shows only the tables, the verdict and the
	// recommendation, not every candidate's figures: a roll proven to be
	// none of the front, the recommendation, the current setting and its
	// delay's cheapest roll stops early (Candidate.Cut, figures left zero).
	// The tables, verdict and recommendation are the same as without it.
	ShownOnly bool
	// fresh runs every simulation from scratch, nothing shared or cut: the
	// sweep as it was first written, which the tests hold the others to.
	fresh bool
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

	shared int // rolls not run: the same as another delay's (tests read it)
}

// Constraints are the user's limits on a recommendation (null = none).
type Constraints struct {
	MaxDowntimeMs *int64 `json:"max_downtime_ms"`
	MaxMoves      *int   `json:"max_moves"`
}

// Setting is one combination the advisor sweeps.
type Setting struct {
	DelayMs int64           `json:"delay_ms"`
	Order   string          `json:"order"`
	Pacing  whatif.PaceMode `json:"pacing"`
	GapMs   *int64          `json:"gap_ms"` // pacing gap only
	Stop    whatif.Stop     `json:"stop"`
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
	// Cut: the roll stopped early under ShownOnly; its figures are not
	// known (never with -o json: every candidate runs to its end there).
	Cut bool `json:"-"`
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
	if opts.Restarts != nil {
		ao.RestartMs = opts.Restarts.Longest(ao.RestartMs) // the sweep's grid; each worker keeps its own
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
	res := startResult(state, opts, ao, group, coop)
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

	sw := newSweep(ctx, sweepInput{state: state, opts: opts, ao: ao, coop: coop, settings: settings, orders: orders, crashed: crashed}, res.Current)
	if err := sw.run(); err != nil {
		return nil, err
	}
	for i, s := range settings {
		c := Candidate{Setting: s, Roll: sw.rolls[i], Crash: sw.crashes[s.DelayMs], Cut: sw.cut[i]}
		c.IsCurrent = s.same(res.Current)
		res.Candidates = append(res.Candidates, c)
	}
	res.shared = sw.shared
	decide(res, ao)
	return res, nil
}

// startResult is the advice's heading: the plan's assumptions, the workers'
// labels, the constraints given and the current setting, before any roll.
func startResult(state cluster.State, opts timeline.Options, ao AdviseOptions, group, coop string) *AdviseResult {
	base := whatif.NewResult("advise", state, opts, "")
	res := &AdviseResult{
		Plan: "advise", Source: state.Source, Protocol: group, Simulated: coop,
		Assumptions: base.Assumptions, Labels: map[string]string{}, Notes: base.Notes,
		Candidates: []Candidate{},
	}
	res.Assumptions.RestartTimeMs = &ao.RestartMs
	res.Assumptions.Settings = append(res.Assumptions.Settings, whatif.RestartSettings(state, opts.Restarts, ao.RestartMs)...)
	namer := state.Namer()
	for _, w := range state.Workers {
		res.Labels[w.ID] = namer.Label(w.ID)
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

	return res
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

func settingLess(a, b Setting) bool {
	if a.DelayMs != b.DelayMs {
		return a.DelayMs < b.DelayMs
	}
	rank := map[string]int{OrderLeaderLast: 0, OrderLeaderFirst: 1, string(whatif.PaceBack): 0, string(whatif.PaceStable): 1, string(whatif.PaceGap): 2, string(whatif.StopClean): 0, string(whatif.StopCrash): 1}
	if a.Order != b.Order {
		return rank[a.Order] < rank[b.Order]
	}
	if a.Pacing != b.Pacing {
		return rank[string(a.Pacing)] < rank[string(b.Pacing)]
	}
	return rank[string(a.Stop)] < rank[string(b.Stop)]
}
