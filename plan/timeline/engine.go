// Package timeline is the timeline engine: it runs a list of events (crash,
// stop, join, connector changes) against a cluster state in simulated time,
// round by round through the assignor, under the time model (timemodel.go),
// and reports every round, outage and figure of one protocol.
package timeline

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/bounds"
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

// ErrCutOff ends a run (Seed.RunCopy) whose task-ms not running passed
// its cutoff.
var ErrCutOff = errors.New("task-ms not running passed the cutoff")

// Default time model values.
const (
	DefaultRoundTimeMs      int64 = 2000
	DefaultSessionTimeoutMs int64 = 10000
	DefaultMaxDelayMs       int64 = 300000
	DefaultMaxRounds              = 200
)

// TimeModel holds the clock assumptions.
type TimeModel struct {
	RoundTimeMs      int64
	SessionTimeoutMs int64
	// HeartbeatIntervalMs opens join windows and dates crash notices from
	// the last heartbeat (timemodel.go); 0 = unknown.
	HeartbeatIntervalMs int64
	MaxRounds           int
	FirstRejoinMs       *int64 // Options.FirstRejoinMs
	// StartPhaseMs is when the members' heartbeat timers last restarted
	// before the plan, in plan time (at or before 0), as the input shows
	// it (cluster.Phase); nil = not seen. startPhase words where it came
	// from for the assumptions.
	StartPhaseMs *int64
	startPhase   string
}

// NewTimeModel is the clock a plan of state runs on: the options' settings
// and, with the heartbeat interval known, the heartbeat phase the input
// shows, carried to the plan's time 0 (Options.ZeroAtMs, else the moment
// the input was read) when it is at most cluster.MaxPhaseAge intervals old.
func NewTimeModel(state cluster.State, opts Options) TimeModel {
	m := TimeModel{RoundTimeMs: opts.RoundTimeMs, SessionTimeoutMs: opts.SessionTimeoutMs, MaxRounds: opts.MaxRounds,
		HeartbeatIntervalMs: opts.HeartbeatIntervalMs, FirstRejoinMs: opts.FirstRejoinMs}.WithDefaults()
	zero := opts.ZeroAtMs
	if zero == 0 && state.Pending != nil {
		zero = state.Pending.TakenAtMs
	}
	switch ph := state.Phase; {
	case m.HeartbeatIntervalMs <= 0, ph == nil && state.PhaseNotSeen == "":
	case ph == nil:
		m.startPhase = "not seen: " + state.PhaseNotSeen
	case zero == 0 || ph.AtMs > zero:
		m.startPhase = "not used: the plan's time 0 is before the round the input dates the phase from"
	case zero-ph.AtMs > cluster.MaxPhaseAge*m.HeartbeatIntervalMs:
		m.startPhase = fmt.Sprintf("not used: the last round the input dates (generation %d) is %s before time 0, more than %d heartbeat intervals (heartbeats drift a few ms each)", ph.Generation, format.Millis(zero-ph.AtMs), cluster.MaxPhaseAge)
	default:
		at := ph.AtMs - zero
		m.StartPhaseMs, m.startPhase = &at, ph.PhaseStatement(at)
	}
	return m
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
	fresh        bool // joined since the last round: its JoinGroup is in
	change       *assignor.MemberChanges
	next         idList // eager: the holdings the round in progress gives it
	// place of of: under a lazy deal (eagerdeal.go, of > 0) the member
	// holds that place of the last deal and owned is not made yet.
	place, of int32
}

func (m *engineMember) set(x *pieceIndex, owned idList) {
	m.owned = owned
	m.conns, m.tasks = x.count(owned)
}

// engine runs one timeline on one Sim.
type engine struct {
	sim   *assignor.Sim
	eager bool
	// eagerStopNoted: the plan's notes already say what an eager stop's
	// spread does to a round (eagertiming.go).
	eagerStopNoted bool
	model          TimeModel
	base           int64 // Sim clock at plan time 0
	now            int64 // plan clock
	seq            int
	queue          eventQueue
	leader         string

	ix     *pieceIndex
	holder []int32 // scratch of eagerHoldings, all 0 between rounds
	// arenas hold the eager members' holdings, this round's and the last.
	arenas    [2]idList
	arenaTurn int
	members   map[string]*engineMember
	joined    []*engineMember    // join order, as the Sim keeps it
	sorted    []*engineMember    // by member id, as the rounds list them
	hosts     assignor.Numbering // host names; member.host is one's number
	notices   int                // crashes not yet noticed
	noticeAt  map[string]int64   // crashed member -> when the group notices

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
	// windows counts the join windows opened (the first may be measured).
	windows int
	// phase is when the members' heartbeat timers last restarted: their
	// JoinGroup answer in the plan's last round (its start; under eager
	// after the stop); before the plan's first round the one the input
	// shows (TimeModel.StartPhaseMs), else noPhase (timemodel.go,
	// nextHeartbeat).
	phase int64
	// fresh are the members that joined since the last round.
	fresh     []*engineMember
	wantRound bool
	triggers  []string
	waiting   []Event // due WhenStable events held until the group is stable

	// followUp is how the members rejoin for the follow-up the last round
	// asked for, and window how for the round wanted now (timemodel.go);
	// followUpStopMs is how long the member revoked the most takes to stop
	// it. mostStarted is the most pieces one member starts in the round in
	// progress (set by memberRound and dealRound).
	followUp, window rejoinKind
	followUpStopMs   int64
	mostStarted      int
	// leaving are the stopped members whose LeaveGroup is still to come.
	leaving map[string]bool

	label func(member string) string // short name for messages

	ctx context.Context // checked between events and before every round (Ctrl-C)
	// cutoff, when set, is checked before every round: once the task-ms
	// not running so far pass it, the run ends with ErrCutOff.
	cutoff func() int64

	// lazy: eager rounds are dealt as places (eagerdeal.go), for plans
	// that keep no per-piece detail; deckID, deckIDs (the deck in piece
	// ids, connectors first), deckConns and deckPos (piece id -> place in
	// the deck, -1 for none) follow the simulator's deck.
	lazy         bool
	deckID       int
	deckIDs      []int32
	deckConns    int
	deckPos      []int32
	pendingCycle int64 // start of the lazy round in progress, -1 = none
	crt          crtCache
	stateAfter   int         // Options.StateAfterRound
	state        *RoundState // the holdings after it, once reached

	marks   []Mark    // events for pictures
	running []int     // host -> tasks running on it now
	series  [][]Point // host -> tasks running over time (nil in lite timelines)
	lite    bool      // skip piece names in the round views
	detail  Detail    // what the output shows of each round and outage
	plot    bool      // keep series (a picture is drawn)

	rounds []RoundView
	events []EventView
	notes  []string
}

// starter is a member's pieces (sorted) that start when the round in
// progress ends: one list per member and round, so that an eager round of
// a big group does not queue every piece one by one.
type starter struct {
	m   *engineMember
	ids idList
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
	i, fresh := e.hosts.Number(h)
	if fresh {
		e.running = append(e.running, 0)
		if e.plot {
			e.series = append(e.series, nil)
		}
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

// heldBy is how many pieces member w holds (0 for none).
func (e *engine) heldBy(w string) int {
	if m := e.members[w]; m != nil {
		return m.conns + m.tasks
	}
	return 0
}

// mostHeld is the most pieces one live member holds.
func (e *engine) mostHeld() int {
	n := 0
	for _, m := range e.joined {
		if !m.dead {
			n = max(n, m.conns+m.tasks)
		}
	}
	return n
}

func (e *engine) removeMember(m *engineMember) {
	m.gone = true
	delete(e.members, m.id)
	e.joined = slices.DeleteFunc(e.joined, func(o *engineMember) bool { return o == m })
	e.sorted = slices.DeleteFunc(e.sorted, func(o *engineMember) bool { return o == m })
}

// renumber follows a pieceIndex renumbering in every id the engine holds.
func (e *engine) renumber(remap []int32) {
	e.materializeAll()
	e.deckID = -1 // the deck's piece ids change too
	for _, m := range e.joined {
		m.owned = remapList(m.owned, remap)
	}
	for i := range e.starts {
		e.starts[i].ids = remapList(slices.Clone(e.starts[i].ids), remap)
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
		if err := bounds.Cancelled(e.ctx); err != nil {
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
			e.window = e.followUp
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
		if !e.wantRound {
			continue
		}
		if err := bounds.Cancelled(e.ctx); err != nil {
			return err
		}
		// The members learn of the rebalance from its first change on,
		// but the broker completes it only once every member rejoined or
		// left: a departure still to come (a LeaveGroup, a crash to be
		// noticed) holds the round, and the members' window runs
		// meanwhile.
		if e.holdForJoinWindow() || e.notices > 0 {
			continue // membership changes until the members rejoin share this round
		}
		if e.cutoff != nil {
			if limit := e.cutoff(); limit < math.MaxInt64 && e.acct.taskMsBy(e.ix, e.now) > limit {
				return ErrCutOff
			}
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
	if e.windowClose > e.now { // a window that closed while a departure was pending waits for it
		consider(e.windowClose)
	}
	if len(e.waiting) > 0 && e.stable() {
		consider(max(e.now, e.busyUntil))
	}
	return best, ok
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
	if !e.plot || m == nil || delta == 0 {
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

func (e *engine) leaderName() string {
	if e.leader == "" {
		return "nobody"
	}
	return e.label(e.leader)
}
