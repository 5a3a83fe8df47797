package plan

import (
	"context"
	"fmt"
	"sort"

	"github.com/connectscope/connectscope/plan/assignor"
)

// The time model of the what-if plans (documented in the README):
//   - a clean stop (graceful shutdown) stops the worker's work and sends
//     LeaveGroup: the round starts at once;
//   - a crash stops the work at once but the group notices only after the
//     session timeout; no round completes before that;
//   - a restarted worker rejoins after the restart time with a new member id,
//     holding nothing;
//   - a round takes RoundTimeMs; under eager every piece stops when the round
//     starts, under the cooperative protocols only the revoked ones; assigned
//     pieces run from the end of the round;
//   - after a round that revoked anything the next round follows at once (when
//     this one ends); after a round that returned a delay, the next round
//     starts when the delay, counted from the round's start (the leader's
//     clock), ends; events that fall inside a round wait for its end.

// Default time model values.
const (
	DefaultRoundTimeMs      int64 = 2000
	DefaultSessionTimeoutMs int64 = 10000
	DefaultMaxDelayMs       int64 = 300000
	DefaultMaxRounds              = 200
)

// EventKind says what happens to the cluster.
type EventKind int

// Event kinds.
const (
	EventStop       EventKind = iota // the worker shuts down cleanly (LeaveGroup)
	EventCrash                       // the worker dies; noticed after the session timeout
	EventJoin                        // a worker joins holding nothing
	EventConnectors                  // the configured connectors become Connectors
	eventNotice                      // internal: the group notices a crash
)

// Event is one thing that happens in a what-if timeline. Its time is AfterMs
// after the moment the event that scheduled it took effect (t = 0 for the
// first events); Then lists events scheduled relative to this one, which is
// how a rolling restart chains "stop, come back, stop the next".
type Event struct {
	AfterMs    int64
	Kind       EventKind
	Worker     string                   // member id (stop, crash, join)
	Host       string                   // join: the machine this member runs on ("" = Worker)
	Replaces   string                   // join: the member id this one restarts (its departure must be noticed first)
	Connectors []assignor.ConnectorSpec // EventConnectors
	// WhenStable holds the event, once due, until the group is stable: no
	// round wanted or running, no follow-up, no scheduled rebalance and no
	// crash waiting to be noticed (a roll paced "after the group is stable").
	WhenStable bool
	Then       []Event
}

// TimeModel holds the clock assumptions.
type TimeModel struct {
	RoundTimeMs      int64
	SessionTimeoutMs int64
	MaxRounds        int
}

func (m TimeModel) withDefaults() TimeModel {
	if m.RoundTimeMs < 0 {
		m.RoundTimeMs = 0
	}
	if m.SessionTimeoutMs <= 0 {
		m.SessionTimeoutMs = DefaultSessionTimeoutMs
	}
	if m.MaxRounds <= 0 {
		m.MaxRounds = DefaultMaxRounds
	}
	return m
}

type queuedEvent struct {
	at  int64
	seq int
	ev  Event
}

// engine runs one timeline on one Sim.
type engine struct {
	sim    *assignor.Sim
	eager  bool
	model  TimeModel
	base   int64 // Sim clock at plan time 0
	now    int64 // plan clock
	seq    int
	queue  []queuedEvent
	leader string

	hostOf   map[string]string // member id -> host
	dead     map[string]bool   // stopped or crashed, still in the group
	notices  int               // crashes not yet noticed
	noticeAt map[string]int64  // crashed member -> when the group notices

	acct       *downtime
	busyUntil  int64     // end of the round in progress
	starts     []starter // pieces starting when the round in progress ends
	followUpAt int64     // -1 = none
	delayedAt  int64     // scheduled rebalance, -1 = none
	dueWhy     string    // why the starting state wants a round at 0 (pending.go), "" = none
	wantRound  bool
	triggers   []string
	waiting    []Event // due WhenStable events held until the group is stable

	label func(member string) string // short name for messages

	ctx context.Context // checked between events and before every round (Ctrl-C)
	// owned caches what each member owns as of the last round (built from
	// the Sim on first use, dropped on join, leave and connector changes):
	// building these sets every round cost more than the assignor itself.
	owned map[string]pieceSet

	marks   []Mark             // events for pictures
	running map[string]int     // host -> tasks running on it now
	series  map[string][]Point // host -> tasks running over time (not in lite timelines)
	lite    bool               // skip piece names in the round views

	rounds []RoundView
	events []EventView
	notes  []string
}

type starter struct {
	worker string
	key    pieceKey
}

func (e *engine) push(at int64, ev Event) {
	e.queue = append(e.queue, queuedEvent{at: at, seq: e.seq, ev: ev})
	e.seq++
	sort.SliceStable(e.queue, func(i, j int) bool {
		if e.queue[i].at != e.queue[j].at {
			return e.queue[i].at < e.queue[j].at
		}
		return e.queue[i].seq < e.queue[j].seq
	})
}

// log records an event of kind about member ("" for none) in words.
func (e *engine) log(kind, member, format string, args ...any) {
	ev := EventView{TimeMs: e.now, Event: fmt.Sprintf(format, args...), Kind: kind}
	if member != "" {
		ev.Worker = &member
	}
	e.events = append(e.events, ev)
}

func (e *engine) host(member string) string {
	if h, ok := e.hostOf[member]; ok {
		return h
	}
	return member
}

// run plays the events and returns when the cluster is quiet: no event left,
// no follow-up and no scheduled rebalance.
func (e *engine) run(first []Event) error {
	for _, ev := range first {
		e.push(ev.AfterMs, ev)
	}
	for {
		if err := cancelled(e.ctx); err != nil {
			return err
		}
		next, ok := e.nextTime()
		if !ok {
			break
		}
		if next < e.busyUntil {
			next = e.busyUntil
		}
		e.finishRound()
		e.now = next
		if e.followUpAt >= 0 && e.followUpAt <= next {
			e.followUpAt = -1
			why := "revocations to follow up"
			if e.dueWhy != "" { // the starting state's round (pending.go)
				why, e.dueWhy = e.dueWhy, ""
			}
			e.want(why)
		}
		if e.delayedAt >= 0 && e.delayedAt <= next {
			e.delayedAt = -1
			e.want("scheduled rebalance (delay ended)")
			e.mark(MarkDelayEnds, "")
		}
		for len(e.queue) > 0 && e.queue[0].at <= next {
			q := e.queue[0]
			e.queue = e.queue[1:]
			if q.ev.WhenStable {
				e.waiting = append(e.waiting, q.ev)
				continue
			}
			if err := e.apply(q.ev); err != nil {
				return err
			}
		}
		if e.stable() && len(e.waiting) > 0 {
			held := e.waiting
			e.waiting = nil
			for _, ev := range held {
				if err := e.apply(ev); err != nil {
					return err
				}
			}
		}
		if !e.wantRound || e.notices > 0 {
			continue // a pending crash blocks every round until it is noticed
		}
		if err := cancelled(e.ctx); err != nil {
			return err
		}
		if len(e.rounds) >= e.model.MaxRounds {
			e.notes = append(e.notes, fmt.Sprintf("stopped after %d rounds without settling", e.model.MaxRounds))
			break
		}
		e.round()
	}
	e.finishRound()
	return nil
}

// stable reports that nothing is pending: no round wanted, no follow-up, no
// scheduled rebalance and no crash the group has yet to notice.
func (e *engine) stable() bool {
	return !e.wantRound && e.followUpAt < 0 && e.delayedAt < 0 && e.notices == 0
}

func (e *engine) want(reason string) {
	e.wantRound = true
	e.triggers = append(e.triggers, reason)
}

// nextTime is the earliest moment something happens.
func (e *engine) nextTime() (int64, bool) {
	best, ok := int64(0), false
	consider := func(t int64) {
		if t >= 0 && (!ok || t < best) {
			best, ok = t, true
		}
	}
	if len(e.queue) > 0 {
		consider(e.queue[0].at)
	}
	consider(e.followUpAt)
	consider(e.delayedAt)
	if len(e.waiting) > 0 && e.stable() {
		consider(max(e.now, e.busyUntil))
	}
	return best, ok
}

// finishRound starts what the round in progress assigned, at its end.
func (e *engine) finishRound() {
	owned := map[string]pieceSet{}
	for _, s := range e.starts {
		if e.dead[s.worker] {
			continue
		}
		set, ok := owned[s.worker]
		if !ok {
			set = e.ownedSet(s.worker)
			owned[s.worker] = set
		}
		if set[s.key] {
			if e.acct.start(s.key, e.busyUntil) {
				e.track(s.worker, s.key, e.busyUntil, 1)
			}
		}
	}
	e.starts = nil
}

// stopPiece stops a piece member w runs, at e.now.
func (e *engine) stopPiece(w string, k pieceKey) {
	if e.acct.stop(k, e.now) {
		e.track(w, k, e.now, -1)
	}
}

// track follows the tasks running per host over time, for the plots.
func (e *engine) track(w string, k pieceKey, t int64, delta int) {
	if e.lite || k.isConnector() {
		return
	}
	if e.running == nil {
		e.running, e.series = map[string]int{}, map[string][]Point{}
	}
	h := e.host(w)
	e.running[h] += delta
	pts := e.series[h]
	if n := len(pts); n > 0 && pts[n-1].TimeMs == t {
		pts[n-1].Tasks = e.running[h]
	} else {
		pts = append(pts, Point{TimeMs: t, Tasks: e.running[h]})
	}
	e.series[h] = pts
}

func (e *engine) mark(kind, member string) {
	if !e.lite {
		e.marks = append(e.marks, Mark{TimeMs: e.now, Kind: kind, Worker: member})
	}
}

// ownedSet is what member w owns now.
func (e *engine) ownedSet(w string) pieceSet {
	if e.owned == nil {
		e.owned = map[string]pieceSet{}
	}
	if set, ok := e.owned[w]; ok {
		return set
	}
	set := setOf(e.sim.Owned(w))
	e.owned[w] = set
	return set
}

func (e *engine) isMember(w string) bool {
	for _, m := range e.sim.Members() {
		if m == w {
			return true
		}
	}
	return false
}

// apply makes one event happen at e.now.
func (e *engine) apply(ev Event) error {
	switch ev.Kind {
	case EventStop, EventCrash:
		if !e.isMember(ev.Worker) || e.dead[ev.Worker] {
			return fmt.Errorf("worker %q is not a running member of the group", ev.Worker)
		}
		for _, k := range keysOf(e.sim.Owned(ev.Worker)) {
			e.stopPiece(ev.Worker, k)
		}
		e.mark(map[EventKind]string{EventStop: MarkStop, EventCrash: MarkCrash}[ev.Kind], ev.Worker)
		e.dead[ev.Worker] = true
		if ev.Kind == EventStop {
			e.log(MarkStop, ev.Worker, "%s stops cleanly (its work stops, LeaveGroup)", e.label(ev.Worker))
			if err := e.leave(ev.Worker); err != nil {
				return err
			}
		} else {
			e.log(MarkCrash, ev.Worker, "%s crashes (its work stops; the group notices after session.timeout.ms = %d ms)", e.label(ev.Worker), e.model.SessionTimeoutMs)
			e.notices++
			e.noticeAt[ev.Worker] = e.now + e.model.SessionTimeoutMs
			e.push(e.noticeAt[ev.Worker], Event{Kind: eventNotice, Worker: ev.Worker})
		}
	case eventNotice:
		e.notices--
		e.log(MarkNotice, ev.Worker, "the group notices that %s is gone (session timeout)", e.label(ev.Worker))
		e.mark(MarkNotice, ev.Worker)
		if err := e.leave(ev.Worker); err != nil {
			return err
		}
	case EventJoin:
		if ev.Replaces != "" && e.isMember(ev.Replaces) {
			// The old incarnation is still in the group (crash not yet
			// noticed): the new member's join completes with that notice.
			e.push(e.noticeAt[ev.Replaces], ev)
			return nil
		}
		if e.isMember(ev.Worker) {
			return fmt.Errorf("worker %q is already a member", ev.Worker)
		}
		delete(e.owned, ev.Worker)
		if err := e.sim.Join(ev.Worker, assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}); err != nil {
			return fmt.Errorf("joining %s: %w", ev.Worker, err)
		}
		h := ev.Host
		if h == "" {
			h = ev.Worker
		}
		e.hostOf[ev.Worker] = h
		if ev.Replaces != "" {
			e.log(MarkReturn, ev.Worker, "%s is back as new member %s, holding nothing", e.label(ev.Replaces), e.label(ev.Worker))
			e.mark(MarkReturn, ev.Worker)
		} else {
			e.log(MarkJoin, ev.Worker, "%s joins, holding nothing", e.label(ev.Worker))
			e.mark(MarkJoin, ev.Worker)
		}
		e.want(e.label(ev.Worker) + " joined")
	case EventConnectors:
		next := pieceSet{}
		for _, k := range configuredKeys(ev.Connectors) {
			next[k] = true
		}
		for _, w := range e.sim.Members() {
			for k := range e.ownedSet(w) {
				if !next[k] && e.acct.isRunning(k) {
					e.track(w, k, e.now, -1) // a deleted piece stops running
				}
			}
		}
		e.sim.SetConnectors(ev.Connectors)
		e.owned = nil
		e.acct.reconfigure(configuredKeys(ev.Connectors), e.now)
		e.log(EventKindConnectors, "", "configured connectors change (%s)", describeSpecs(ev.Connectors))
		e.want("connectors changed")
	}
	for _, then := range ev.Then {
		e.push(e.now+then.AfterMs, then)
	}
	return nil
}

// leave removes a member from the group; when it was the leader, leadership
// moves and the new leader starts with no memory of earlier rounds.
func (e *engine) leave(w string) error {
	delete(e.owned, w)
	if err := e.sim.Leave(w); err != nil {
		return fmt.Errorf("%s leaving: %w", w, err)
	}
	delete(e.dead, w)
	e.want(e.label(w) + " left")
	if w == e.leader {
		e.sim.NewLeader()
		e.leader = ""
		if ms := e.sim.Members(); len(ms) > 0 {
			e.leader = ms[0]
		}
		e.log(MarkLeader, e.leader, "%s was the leader: %s leads now and has no memory of earlier rounds", e.label(w), e.leaderName())
		e.mark(MarkLeader, e.leader)
	}
	return nil
}

func (e *engine) leaderName() string {
	if e.leader == "" {
		return "nobody"
	}
	return e.label(e.leader)
}

// round runs one rebalance round starting at e.now.
func (e *engine) round() {
	if e.leader == "" {
		if ms := e.sim.Members(); len(ms) > 0 {
			e.leader = ms[0]
		}
	}
	if d := e.base + e.now - e.sim.Now(); d > 0 {
		e.sim.Sleep(d)
	}
	before := map[string]pieceSet{}
	for _, w := range e.sim.Members() {
		before[w] = e.ownedSet(w)
	}
	r := e.sim.Rebalance(false)
	end := e.now + e.model.RoundTimeMs
	if e.eager {
		for w, s := range before {
			for k := range s {
				e.stopPiece(w, k)
			}
		}
	}
	view := RoundView{Round: len(e.rounds) + 1, Generation: r.Generation, TimeMs: e.now, EndMs: end,
		Trigger: uniqueJoin(e.triggers), Workers: []WorkerRoundView{}}
	revokedAny, delay := false, int64(0)
	workers := make([]string, 0, len(r.Workers))
	for w := range r.Workers {
		workers = append(workers, w)
	}
	sort.Strings(workers)
	for _, w := range workers {
		wr := r.Workers[w]
		prev := before[w]
		after, kept := prev, true
		// A cooperative worker told nothing keeps exactly what it had.
		if e.eager || len(wr.Revoked.Connectors)+len(wr.Revoked.Tasks)+len(wr.Assigned.Connectors)+len(wr.Assigned.Tasks) > 0 || prev == nil {
			after, kept = setOf(e.sim.Owned(w)), false
		}
		e.owned[w] = after
		var revoked, assigned []pieceKey
		if e.eager {
			// Eager sends whole assignments: what a worker had and did not
			// get back is in effect revoked; everything is restarted.
			revoked, assigned = prev.minus(after), after.minus(prev)
		} else if e.lite {
			revoked, assigned = keysOf(wr.Revoked), keysOf(wr.Assigned)
			if len(revoked)+len(assigned) > 0 {
				view.changed = true
			}
			if len(revoked) > 0 {
				revokedAny = true
			}
			for _, k := range revoked {
				if prev[k] {
					e.stopPiece(w, k)
				}
			}
		} else {
			revoked = setOf(wr.Revoked).sorted()
			assigned = setOf(wr.Assigned).sorted()
			if len(revoked) > 0 {
				revokedAny = true
			}
			for _, k := range revoked {
				if prev[k] {
					e.stopPiece(w, k)
				}
			}
		}
		if e.eager {
			for k := range after {
				e.starts = append(e.starts, starter{worker: w, key: k})
			}
		} else {
			for _, k := range assigned {
				e.starts = append(e.starts, starter{worker: w, key: k})
			}
		}
		if wr.DelayMs > delay {
			delay = wr.DelayMs
		}
		if e.lite {
			continue // the advisor reads the summary only: no per-worker view
		}
		oc, ot := countSet(after)
		keepC, keepT := oc, ot
		if !kept {
			keepC, keepT = 0, 0
			for k := range prev {
				if after[k] {
					if k.isConnector() {
						keepC++
					} else {
						keepT++
					}
				}
			}
		}
		rc, rt := names(revoked)
		ac, at := names(assigned)
		view.Workers = append(view.Workers, WorkerRoundView{
			Worker: w, KeepsConnectors: keepC, KeepsTasks: keepT,
			RevokedConnectors: rc, RevokedTasks: rt, AssignedConnectors: ac, AssignedTasks: at,
			DelayMs: wr.DelayMs, Connectors: oc, Tasks: ot,
		})
	}
	view.DelayMs = delay
	e.rounds = append(e.rounds, view)
	e.triggers = nil
	e.wantRound = false
	e.busyUntil = end
	e.followUpAt, e.delayedAt = -1, -1
	if revokedAny {
		e.followUpAt = end
	} else if delay > 0 {
		at := e.now + delay
		if at < end {
			at = end
		}
		e.delayedAt = at
	}
}

func uniqueJoin(parts []string) string {
	seen := map[string]bool{}
	out := ""
	for _, p := range parts {
		if seen[p] {
			continue
		}
		seen[p] = true
		if out != "" {
			out += "; "
		}
		out += p
	}
	return out
}

func describeSpecs(specs []assignor.ConnectorSpec) string {
	tasks := 0
	for _, c := range specs {
		tasks += c.Tasks
	}
	return fmt.Sprintf("%d connectors, %d tasks", len(specs), tasks)
}
