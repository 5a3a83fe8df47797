package whatif

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// RollingRestartPlan previews restarting every worker in order, one at a
// time: each stops, comes back after restartMs as a new member holding
// nothing, and the next one stops as soon as the previous one is back.
// order lists the workers (empty = members in order, the leader last).
func RollingRestartPlan(state cluster.State, opts timeline.Options, restartMs int64, stop Stop, order []string) (*PlanResult, error) {
	if restartMs < 0 {
		return nil, field.Errorf("RestartTime", ": must not be negative")
	}
	if err := bounds.CheckDurationMs("--restart-time", restartMs); err != nil {
		return nil, err
	}
	kind, err := StopKind(stop)
	if err != nil {
		return nil, err
	}
	resolved, err := RestartOrder(state, order)
	if err != nil {
		return nil, err
	}
	if err := checkPlanBounds(state, opts, len(resolved)); err != nil {
		return nil, err
	}
	if opts.MaxRounds == 0 {
		opts.MaxRounds = RollRoundCap(len(resolved))
	}
	next := RollEvents(state, resolved, restartMs, opts.Restarts, kind, Pacing{})
	each := Millis(restartMs) + " each"
	if opts.Restarts != nil {
		restartMs = opts.Restarts.Longest(restartMs)
		each = "each its measured restart time (up to " + Millis(restartMs) + ")"
	}
	res := NewResult("rolling-restart", state, opts,
		fmt.Sprintf("rolling restart of %s, %s, the next stopped when the previous is back", workerList(state, resolved), each))
	res.Assumptions.RestartTimeMs = &restartMs
	res.Assumptions.Settings = append(res.Assumptions.Settings, RestartSettings(state, opts.Restarts, restartMs)...)
	res.Assumptions.Stop = &stop
	res.Assumptions.Order = state.Names(resolved)
	res.noteFoldTiming(timeline.NewTimeModel(state, opts), restartMs, kind)
	return res, res.addBranch(state, opts, "rolling restart", next)
}

// noteFoldTiming says where a roll's rounds depend on timing the plan
// cannot see: a return within a heartbeat interval of its stop's
// LeaveGroup shares the stop's round when it reaches the broker before the
// other members rejoin, which depends on where their heartbeats fall (the
// phase the input shows, else half an interval). A crash roll sends no
// LeaveGroup.
func (r *PlanResult) noteFoldTiming(m timeline.TimeModel, restartMs int64, kind timeline.EventKind) {
	heartbeatMs, leave := m.HeartbeatIntervalMs, m.LeaveGroupAfterMs()
	if kind != timeline.EventStop {
		leave = 0
	}
	if heartbeatMs <= 0 || restartMs >= leave+heartbeatMs {
		return
	}
	learnt := m.LearntAtMs(leave)
	fold := "shares"
	if restartMs >= learnt {
		fold = "does not share"
	}
	how := fmt.Sprintf("with no heartbeat phase known it folds returns within %s of the LeaveGroup", Millis(learnt-leave))
	if m.StartPhaseMs != nil {
		how = fmt.Sprintf("in the heartbeat phase the input shows, the others learn of the first LeaveGroup %s after the stop", Millis(learnt))
	}
	r.Notes = append(r.Notes, fmt.Sprintf("timing-dependent: a restart of %s is within heartbeat.interval.ms (%s) of its stop's LeaveGroup (taken as %s after the stop), so a real group may or may not fold each return into the round of its own stop (it does when the return reaches the broker before the other members' next heartbeat); this plan's first return %s that round (%s; later ones when they come before the members' next heartbeat, whole intervals from their last round), and the rounds, their count and the final pieces can differ from a real roll's",
		Millis(restartMs), Millis(heartbeatMs), Millis(leave), fold, how))
}

// noteLeaveTiming says where the round of a clean stop at time 0 depends
// on when its LeaveGroup reaches the broker, which the plan takes from a
// median: with the others' heartbeat phase known, a heartbeat inside the
// measured range of the LeaveGroup makes the round an interval earlier or
// later than planned, and every figure after it with it. A crash sends
// no LeaveGroup.
func (r *PlanResult) noteLeaveTiming(m timeline.TimeModel, kind timeline.EventKind, who string) {
	earliest, planned, latest, ok := m.LeaveLearntRange(0)
	if kind != timeline.EventStop || !ok {
		return
	}
	r.Notes = append(r.Notes, fmt.Sprintf("timing-dependent: in the heartbeat phase the input shows, the others learn of %s's LeaveGroup at their heartbeat %s after the stop (the LeaveGroup taken as %s after it); %s, an interval (%s) apart, and every figure of this plan moves with it",
		who, Millis(planned), Millis(m.LeaveGroupAfterMs()), m.LeaveRangeWords(earliest, latest), Millis(m.HeartbeatIntervalMs)))
}

// RollRoundCap is the round cap of a roll of n workers: a roll takes a few
// rounds per worker (more when paced by stability), so the plans' default
// cap would cut a roll of a few hundred workers short.
func RollRoundCap(n int) int { return max(timeline.DefaultMaxRounds, 8*n+20) }

// Pacing says when the next worker of a roll stops.
type Pacing struct {
	Mode  PaceMode // PaceBack (default), PaceStable or PaceGap
	GapMs int64    // PaceGap: how long after the previous worker is back
}

// PaceMode is how a roll paces its workers; ParsePaceMode makes one from
// text.
type PaceMode string

// Pacing modes of a rolling restart.
const (
	PaceBack   PaceMode = "back"   // as soon as the previous worker is back
	PaceStable PaceMode = "stable" // when the group is stable again after the previous return
	PaceGap    PaceMode = "gap"    // a fixed time after the previous worker is back
)

// ParsePaceMode reads a pacing mode in any case; one that is none is an
// error naming the input Pacing.
func ParsePaceMode(s string) (PaceMode, error) {
	switch m := PaceMode(strings.ToLower(s)); m {
	case PaceBack, PaceStable, PaceGap:
		return m, nil
	default:
		return "", field.Errorf("Pacing", ": want %s, %s or %s, got %q", PaceBack, PaceStable, PaceGap, m)
	}
}

// RollEvents chains the roll from the last worker backwards: each stops,
// comes back after restartMs as a new member, and the next one stops as the
// pacing says. A worker with a restart time of its own in restarts takes
// that one.
func RollEvents(state cluster.State, order []string, restartMs int64, restarts *timeline.RestartTimes, kind timeline.EventKind, pace Pacing) []timeline.Event {
	var next []timeline.Event
	taken := memberIDs(state)
	for i := len(order) - 1; i >= 0; i-- {
		w := order[i]
		back := timeline.Event{AfterMs: restarts.For(w, restartMs), Kind: timeline.EventJoin, Worker: incarnationAmong(state, w, taken), Host: w, Replaces: w, Then: next}
		stop := timeline.Event{Kind: kind, Worker: w, Then: []timeline.Event{back}}
		if i > 0 {
			switch pace.Mode {
			case PaceStable:
				stop.WhenStable = true
			case PaceGap:
				stop.AfterMs = pace.GapMs
			}
		}
		next = []timeline.Event{stop}
	}
	return next
}

// listedWorkers is how many workers a plan's description names whole (a
// roll's order is worth reading); a scale by thousands names the first
// ten and counts them all, not a line of a megabyte.
const listedWorkers = 100

// workerList names ids for a plan's description, in order.
func workerList(state cluster.State, ids []string) string {
	if len(ids) <= listedWorkers {
		return strings.Join(labels(state, ids), ", ")
	}
	return fmt.Sprintf("%s, … %d workers in all", strings.Join(labels(state, ids[:10]), ", "), len(ids))
}

func labels(state cluster.State, ids []string) []string {
	namer := state.Namer()
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = namer.Label(id)
	}
	return out
}

func RestartOrder(state cluster.State, order []string) ([]string, error) {
	if len(order) == 0 {
		leader := state.LeaderID()
		out := []string{}
		for _, w := range state.Workers {
			if w.ID != leader {
				out = append(out, w.ID)
			}
		}
		if leader != "" {
			out = append(out, leader)
		}
		return out, nil
	}
	seen := map[string]bool{}
	out := []string{}
	namer := state.Namer()
	for _, o := range order {
		w, err := namer.ResolveWorker(o)
		if err != nil {
			return nil, field.Errorf("Order", ": %w", err)
		}
		if seen[w] {
			return nil, field.Errorf("Order", ": worker %s listed twice", w)
		}
		seen[w] = true
		out = append(out, w)
	}
	// The plan is a roll of the whole group: a forgotten worker would make
	// its cost look smaller than the real roll's.
	var missing []string
	for _, w := range state.Workers {
		if !seen[w.ID] {
			missing = append(missing, namer.Label(w.ID))
		}
	}
	if len(missing) > 0 {
		return nil, field.Errorf("Order", " leaves out %s: list every worker, the roll restarts them all", strings.Join(missing, ", "))
	}
	return out, nil
}
