// Package timeline is the timeline engine: it runs a list of events (crash,
// stop, join, connector changes) against a cluster state in simulated time,
// round by round through the assignor, under the time model (timemodel.go),
// and reports every round, outage and figure of one protocol.
package timeline

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
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
	// HeartbeatIntervalMs opens join windows and dates crash notices from
	// the last heartbeat (timemodel.go); 0 = unknown.
	HeartbeatIntervalMs int64
	MaxRounds           int
}

func (m TimeModel) WithDefaults() TimeModel {
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

// eventQueue is a min-heap by (time, order of scheduling): pushing used to
// re-sort the whole queue, which a long roll's thousands of events made slow.
type eventQueue []queuedEvent

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(queuedEvent)) }
func (q *eventQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// engineMember is one group member as the engine follows it: what it owns (piece
// ids, sorted) and its counts, kept up to date from each round's changes so
// that a round costs what it changed, not the size of the cluster.
type engineMember struct {
	id           string
	host         int32 // index into engine.hosts
	owned        idList
	conns, tasks int
	dead         bool // stopped or crashed, still in the group
	gone         bool // left the group
	change       *assignor.MemberChanges
}

func (m *engineMember) set(x *pieceIndex, owned idList) {
	m.owned = owned
	m.conns, m.tasks = x.count(owned)
}

// engine runs one timeline on one Sim.
type engine struct {
	sim    *assignor.Sim
	eager  bool
	model  TimeModel
	base   int64 // Sim clock at plan time 0
	now    int64 // plan clock
	seq    int
	queue  eventQueue
	leader string

	ix       *pieceIndex
	members  map[string]*engineMember
	joined   []*engineMember // join order, as the Sim keeps it
	sorted   []*engineMember // by member id, as the rounds list them
	hosts    []string        // host names; member.host indexes them
	hostIdx  map[string]int32
	notices  int              // crashes not yet noticed
	noticeAt map[string]int64 // crashed member -> when the group notices

	acct       *downtime
	startHost  []int32   // piece id -> host that ran it at the start, -1 = none
	busyUntil  int64     // end of the round in progress
	starts     []starter // pieces starting when the round in progress ends
	followUpAt int64     // -1 = none
	delayedAt  int64     // scheduled rebalance, -1 = none
	dueWhy     string    // why the starting state wants a round at 0 (cluster/pending.go), "" = none
	// windowOpen and windowClose bound the join window of the round
	// wanted now (timemodel.go); -1 = none open.
	windowOpen, windowClose int64
	// selfRejoin says the wanted round is one every member starts itself
	// (its delay ran out), so nobody waits for a heartbeat to learn of it.
	selfRejoin bool
	wantRound  bool
	triggers   []string
	waiting    []Event // due WhenStable events held until the group is stable

	label func(member string) string // short name for messages

	ctx context.Context // checked between events and before every round (Ctrl-C)

	marks   []Mark    // events for pictures
	running []int     // host -> tasks running on it now
	series  [][]Point // host -> tasks running over time (nil in lite timelines)
	lite    bool      // skip piece names in the round views

	rounds []RoundView
	events []EventView
	notes  []string
}

type starter struct {
	m  *engineMember
	id int32
}

func (e *engine) push(at int64, ev Event) {
	heap.Push(&e.queue, queuedEvent{at: at, seq: e.seq, ev: ev})
	e.seq++
}

// log records an event of kind about member ("" for none) in words.
func (e *engine) log(kind, member, format string, args ...any) {
	ev := EventView{TimeMs: e.now, Event: fmt.Sprintf(format, args...), Kind: kind}
	if member != "" {
		ev.Worker = &member
	}
	e.events = append(e.events, ev)
}

// hostOf numbers a host name.
func (e *engine) hostOf(h string) int32 {
	if i, ok := e.hostIdx[h]; ok {
		return i
	}
	i := int32(len(e.hosts))
	e.hosts = append(e.hosts, h)
	e.hostIdx[h] = i
	e.running = append(e.running, 0)
	if !e.lite {
		e.series = append(e.series, nil)
	}
	return i
}

// addMember follows a member that joined the Sim, owning owned.
func (e *engine) addMember(id, host string, owned idList) *engineMember {
	m := &engineMember{id: id, host: e.hostOf(host)}
	m.set(e.ix, owned)
	e.members[id] = m
	e.joined = append(e.joined, m)
	i, _ := slices.BinarySearchFunc(e.sorted, id, func(m *engineMember, id string) int { return strings.Compare(m.id, id) })
	e.sorted = slices.Insert(e.sorted, i, m)
	return m
}

func (e *engine) removeMember(m *engineMember) {
	m.gone = true
	delete(e.members, m.id)
	e.joined = slices.DeleteFunc(e.joined, func(o *engineMember) bool { return o == m })
	e.sorted = slices.DeleteFunc(e.sorted, func(o *engineMember) bool { return o == m })
}

// renumber follows a pieceIndex renumbering in every id the engine holds.
func (e *engine) renumber(remap []int32) {
	for _, m := range e.joined {
		m.owned = remapList(m.owned, remap)
	}
	for i := range e.starts {
		e.starts[i].id = remap[e.starts[i].id]
	}
	e.acct.renumber(remap, e.ix.len())
	hosts := make([]int32, e.ix.len())
	for i := range hosts {
		hosts[i] = -1
	}
	for o, id := range remap {
		hosts[id] = e.startHost[o]
	}
	e.startHost = hosts
}

// run plays the events and returns when the cluster is quiet: no event left,
// no follow-up and no scheduled rebalance.
func (e *engine) run(first []Event) error {
	for _, ev := range first {
		e.push(ev.AfterMs, ev)
	}
	for {
		if err := cluster.Cancelled(e.ctx); err != nil {
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
			if e.dueWhy != "" { // the starting state's round (cluster/pending.go)
				why, e.dueWhy = e.dueWhy, ""
			}
			e.want(why)
		}
		if e.delayedAt >= 0 && e.delayedAt <= next {
			e.delayedAt = -1
			e.want("scheduled rebalance (delay ended)")
			e.mark(MarkDelayEnds, "")
			e.selfRejoin = true // every member's own timer: no join window
		}
		for len(e.queue) > 0 && e.queue[0].at <= next {
			q := heap.Pop(&e.queue).(queuedEvent)
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
		if err := cluster.Cancelled(e.ctx); err != nil {
			return err
		}
		if e.holdForJoinWindow() {
			continue // membership changes until the members rejoin share this round
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
	consider(e.windowClose)
	if len(e.waiting) > 0 && e.stable() {
		consider(max(e.now, e.busyUntil))
	}
	return best, ok
}

// finishRound starts what the round in progress assigned, at its end.
func (e *engine) finishRound() {
	var m *engineMember
	n := 0
	for _, s := range e.starts {
		if s.m != m {
			e.track(m, e.busyUntil, n)
			m, n = s.m, 0
		}
		if s.m.dead || s.m.gone || !s.m.owned.has(s.id) {
			continue
		}
		if e.acct.start(s.id, e.busyUntil) {
			n += e.taskCount(s.id)
		}
	}
	e.track(m, e.busyUntil, n)
	e.starts = e.starts[:0]
}

// stopPieces stops the pieces member m runs among ids, at e.now.
func (e *engine) stopPieces(m *engineMember, ids idList) {
	n := 0
	for _, id := range ids {
		if e.acct.stop(id, e.now) {
			n -= e.taskCount(id)
		}
	}
	e.track(m, e.now, n)
}

// taskCount is 1 for a task (what the plots count), 0 for a connector.
func (e *engine) taskCount(id int32) int {
	if e.ix.isConnector(id) {
		return 0
	}
	return 1
}

// track follows the tasks running per host over time, for the plots:
// delta tasks of member m's host started (or, negative, stopped) at t.
// Callers add up a member's pieces first (all starts or all stops, so a
// sum of zero means no task): the point at t is the same as one call per
// task would leave.
func (e *engine) track(m *engineMember, t int64, delta int) {
	if e.lite || m == nil || delta == 0 {
		return
	}
	h := m.host
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

// apply makes one event happen at e.now.
func (e *engine) apply(ev Event) error {
	switch ev.Kind {
	case EventStop, EventCrash:
		m := e.members[ev.Worker]
		if m == nil || m.dead {
			return fmt.Errorf("worker %q is not a running member of the group", ev.Worker)
		}
		e.stopPieces(m, m.owned)
		e.mark(map[EventKind]string{EventStop: MarkStop, EventCrash: MarkCrash}[ev.Kind], ev.Worker)
		m.dead = true
		if ev.Kind == EventStop {
			e.log(MarkStop, ev.Worker, "%s stops cleanly (its work stops, LeaveGroup)", e.label(ev.Worker))
			if err := e.leave(ev.Worker); err != nil {
				return err
			}
		} else {
			if e.model.HeartbeatIntervalMs > 0 {
				e.log(MarkCrash, ev.Worker, "%s crashes (its work stops; the broker expires it session.timeout.ms after its last heartbeat, about %d ms from now)", e.label(ev.Worker), e.model.CrashNoticeMs())
			} else {
				e.log(MarkCrash, ev.Worker, "%s crashes (its work stops; the group notices after session.timeout.ms = %d ms)", e.label(ev.Worker), e.model.SessionTimeoutMs)
			}
			e.notices++
			e.noticeAt[ev.Worker] = e.now + e.model.CrashNoticeMs()
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
		if ev.Replaces != "" && e.members[ev.Replaces] != nil {
			// The old incarnation is still in the group (crash not yet
			// noticed): the new member's join completes with that notice.
			e.push(e.noticeAt[ev.Replaces], ev)
			return nil
		}
		if e.members[ev.Worker] != nil {
			return fmt.Errorf("worker %q is already a member", ev.Worker)
		}
		if err := e.sim.Join(ev.Worker, assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}); err != nil {
			return fmt.Errorf("joining %s: %w", ev.Worker, err)
		}
		h := ev.Host
		if h == "" {
			h = ev.Worker
		}
		e.addMember(ev.Worker, h, nil)
		if ev.Replaces != "" {
			e.log(MarkReturn, ev.Worker, "%s is back as new member %s, holding nothing", e.label(ev.Replaces), e.label(ev.Worker))
			e.mark(MarkReturn, ev.Worker)
		} else {
			e.log(MarkJoin, ev.Worker, "%s joins, holding nothing", e.label(ev.Worker))
			e.mark(MarkJoin, ev.Worker)
		}
		e.want(e.label(ev.Worker) + " joined")
	case EventConnectors:
		keys := cluster.ConfiguredKeys(ev.Connectors)
		if remap := e.ix.add(keys); remap != nil {
			e.renumber(remap)
		}
		next := make([]bool, e.ix.len())
		for _, k := range keys {
			next[e.ix.lookup(k)] = true
		}
		for _, m := range e.joined {
			n := 0
			for _, id := range m.owned {
				if !next[id] && e.acct.isRunning(id) {
					n -= e.taskCount(id) // a deleted piece stops running
				}
			}
			e.track(m, e.now, n)
		}
		e.sim.SetConnectors(ev.Connectors)
		e.acct.reconfigure(next, e.now)
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
	if err := e.sim.Leave(w); err != nil {
		return fmt.Errorf("%s leaving: %w", w, err)
	}
	if m := e.members[w]; m != nil {
		e.removeMember(m)
	}
	e.want(e.label(w) + " left")
	if w == e.leader {
		e.sim.NewLeader()
		e.leader = ""
		if len(e.joined) > 0 {
			e.leader = e.joined[0].id
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
	if e.leader == "" && len(e.joined) > 0 {
		e.leader = e.joined[0].id
	}
	if d := e.base + e.now - e.sim.Now(); d > 0 {
		e.sim.Sleep(d)
	}
	rc := e.sim.RebalanceChanges(false)
	for i := range rc.Members {
		m := e.joined[i]
		if m.id != rc.Members[i].ID {
			panic("plan: the engine's members are out of step with the simulator's")
		}
		m.change = &rc.Members[i]
	}
	end := e.now + e.model.RoundTimeMs
	if e.eager {
		for _, m := range e.sorted {
			e.stopPieces(m, m.owned)
		}
	}
	view := RoundView{Round: len(e.rounds) + 1, Generation: rc.Generation, TimeMs: e.roundOpened(), EndMs: end,
		Trigger: uniqueJoin(e.triggers), Workers: []WorkerRoundView{}}
	if !e.lite {
		view.Workers = make([]WorkerRoundView, 0, len(e.sorted))
	}
	revokedAny := false
	for _, m := range e.sorted {
		ch := m.change
		m.change = nil
		prev := m.owned
		var revoked, assigned idList
		keepC, keepT := m.conns, m.tasks
		if e.eager {
			// Eager sends whole assignments: what a worker had and did not
			// get back is in effect revoked; everything is restarted.
			after := sortedIDs(e.simIDs(ch.AssignedConns, ch.AssignedTasks))
			revoked, assigned = prev.minus(after), after.minus(prev)
			keepC, keepT = e.ix.common(prev, after)
			m.set(e.ix, after)
			for _, id := range after {
				e.starts = append(e.starts, starter{m: m, id: id})
			}
		} else if len(ch.AssignedConns)+len(ch.AssignedTasks)+len(ch.RevokedConns)+len(ch.RevokedTasks) > 0 {
			// A cooperative worker told nothing keeps exactly what it had.
			revoked = sortedIDs(e.simIDs(ch.RevokedConns, ch.RevokedTasks))
			assigned = sortedIDs(e.simIDs(ch.AssignedConns, ch.AssignedTasks))
			view.changed = true
			if len(revoked) > 0 {
				revokedAny = true
			}
			e.stopPieces(m, revoked.common(prev))
			after := prev.minus(revoked).union(assigned)
			keepC, keepT = e.ix.common(prev, after)
			m.set(e.ix, after)
			for _, id := range assigned {
				e.starts = append(e.starts, starter{m: m, id: id})
			}
		}
		if len(revoked)+len(assigned) > 0 {
			view.changed = true
		}
		if e.lite {
			continue // the advisor reads the summary only: no per-worker view
		}
		rcs, rts := e.ix.namesOf(revoked)
		acs, ats := e.ix.namesOf(assigned)
		view.Workers = append(view.Workers, WorkerRoundView{
			Worker: m.id, KeepsConnectors: keepC, KeepsTasks: keepT,
			RevokedConnectors: rcs, RevokedTasks: rts, AssignedConnectors: acs, AssignedTasks: ats,
			DelayMs: rc.DelayMs, Connectors: m.conns, Tasks: m.tasks,
		})
	}
	delay := rc.DelayMs
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

// simIDs maps the simulator's connector and task ids to piece ids, in a
// new list.
func (e *engine) simIDs(conns, tasks []int32) []int32 {
	out := make([]int32, 0, len(conns)+len(tasks))
	for _, c := range conns {
		out = append(out, e.ix.fromSim(e.sim, c, false))
	}
	for _, t := range tasks {
		out = append(out, e.ix.fromSim(e.sim, t, true))
	}
	return out
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
