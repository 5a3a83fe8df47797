package timeline

import (
	"fmt"
	"math"
)

// The clock of a rebalance, in one place. Kafka's assignor decides what
// moves; when it happens follows the group protocol and what the workers
// do around it. The parameters below were read from real workers' logs
// (README, "Calibration": the per-round figures of the clock matrix,
// e2e/realkafka/realcluster, CONNECTSCOPE_CLOCK_ROUNDS=1):
//
//   - Noticing. A membership change (a LeaveGroup, a JoinGroup, a session
//     expiry) puts the group into PreparingRebalance; the members learn it
//     at their next heartbeat. Members that completed the same round
//     heartbeat in step, every heartbeat.interval.ms from their JoinGroup
//     answer in it (the heartbeat thread restarts then), so they learn
//     together at the first such beat after the change (nextHeartbeat).
//     Before the plan's first round no input shows that phase, and the
//     window is taken as half an interval (up to a whole one), or the
//     measured first rejoin (Options.FirstRejoinMs). Every membership
//     change the broker sees before they rejoin is part of the same
//     generation: a worker that comes back, or the next one that stops,
//     within that window shares the round (the join window).
//     The window waits only for the members that were in the group before
//     it: once every one of them has left (the last worker of a roll
//     stopping while the one before it is back), nobody is left to learn
//     of the rebalance and it completes at once. A departure still to
//     come (a stopping worker's LeaveGroup, a crash not yet noticed) holds
//     the round, not the window: the broker completes the rebalance when
//     every member rejoined or left, so the round runs at the later of
//     the two.
//   - A clean stop stops the worker's work at once, but its LeaveGroup
//     goes out only when the worker has stopped everything
//     (LeaveGroupAfterMs); the join window follows.
//   - A crash is noticed when the broker expires the member,
//     session.timeout.ms after its last heartbeat, and the others learn
//     it at their next heartbeat: after a round of the plan, in the
//     members' phase (lastHeartbeat, nextHeartbeat); before it,
//     CrashNoticeMs, then the join window.
//   - A change of the configured connectors or tasks is read by every
//     worker from the config topic, and each rejoins at once: no window.
//   - A delay that runs out is every member's own timer: they were told the
//     same delay in the same round and rejoin together at once, without a
//     join window.
//   - A follow-up after revocations: a member that was revoked something
//     stops it (StopWorkMs, by the pieces) and rejoins at once; a member revoked nothing
//     learns of the follow-up at its next heartbeat, a whole interval
//     after its JoinGroup answer in the round.
//   - The round itself (JoinGroup to the assigned work started: join,
//     sync, start) takes RoundTimeMs from the moment the members rejoin,
//     plus StartPerPieceMs for each piece of the member that starts the
//     most (a worker creates them one after another). Revoked work stops
//     when the round starts. Eager members stop all their work when they
//     learn of the round and rejoin once it stopped: under eager every
//     piece is down EagerStopMs (of the member holding the most) plus
//     the round.
//
// Without the heartbeat interval (0) the window is empty, a crash is
// noticed session.timeout.ms after the kill, a clean stop leaves at once,
// work stops instantly and each event gets its own round, as plans did
// before the interval was known (the uncalibrated model; RoundTimeMs 2 s).

// DefaultRoundTimeWithHeartbeatMs is the round time when the heartbeat
// interval is known: the join windows, the stops and the starts
// (StartPerPieceMs) carry the rest, and the round is the join and sync,
// from the members' JoinGroup to their assignment. Measured per round
// from the workers' logs (README, "Calibration"): the last JoinGroup to
// the assignment, median per run 16, 30, 67 and 97 ms.
const DefaultRoundTimeWithHeartbeatMs int64 = 50

// The per-piece parts of a round, measured per worker from the logs of
// real 4.4.0 and 3.9.2 workers (README, "Calibration"; fitted to the
// parts, never to the task-seconds). With the heartbeat interval known
// only. Left out of every fit: stops that waited out
// task.shutdown.graceful.timeout.ms ("Graceful stop of task ... failed":
// a sink task whose consumer group was rebalancing, which no snapshot
// shows; seen after a crash, while the group still listed the crashed
// worker's consumers, and when a worker stopped 14 or more tasks of one
// sink connector at once).
const (
	// StopWorkBaseMs and StopWorkPerPieceMs: how long a cooperative
	// worker takes to stop the pieces it was revoked before it rejoins,
	// from its "Rebalance started" to "Finished stopping tasks in
	// preparation for rebalance": 44 ms to 1.6 s over 34 stops of 1 to 8
	// pieces (median 199 ms for 1 piece, 491 ms for 3, 577 ms for 8);
	// Theil-Sen fit 217 ms + 35.8 ms per piece.
	StopWorkBaseMs     int64 = 220
	StopWorkPerPieceMs int64 = 36
	// EagerStopBaseMs and EagerStopPerPieceMs: an eager worker stops all
	// its work before it rejoins, all of it at once: 260 ms to 1.06 s
	// for 17 pieces (7 stops, median 428 ms) and 457 ms for 42; Theil-Sen
	// fit 408 ms + 1.2 ms per piece.
	EagerStopBaseMs     int64 = 410
	EagerStopPerPieceMs int64 = 1
	// EagerStopEarliestMs and EagerStopLatestMs bound the same
	// measurement over those stops and 12 more of 2 workers holding 5 to
	// 9 pieces each (138 to 965 ms). Each of the 12 ended as the last of
	// the worker's source tasks stopped, which it does only when its poll
	// returns (the test clusters' file source waits up to a second), and
	// an eager round waits for its slowest member: its pieces can be down
	// that much less or more than the fit says (noteEagerStop).
	EagerStopEarliestMs int64 = 130
	EagerStopLatestMs   int64 = 1060
	// LeaveGroupAfterMsDefault and LeaveGroupPerPieceMs: how long after a
	// clean stop the worker sends LeaveGroup. It stops its connectors and
	// tasks (all at once, each within task.shutdown.graceful.timeout.ms),
	// then its status, config and offset stores (about 1 s), then leaves.
	// Measured from the worker's first "Stopping" line: 0.58 to 2.9 s,
	// median 1.19 s, over 28 clean stops of 5 to 17 pieces, and 0.45 to
	// 1.8 s, median 1.1 s, over 7 of 13 to 42 pieces: no growth by the
	// pieces held (the fitted slope is below zero, so the per-piece term
	// is 0).
	LeaveGroupAfterMsDefault int64 = 1200
	LeaveGroupPerPieceMs     int64 = 0
	// LeaveGroupEarliestMs and LeaveGroupLatestMs bound the same
	// measurement (0.45 to 2.9 s over the 35 clean stops, and 0.37 to
	// 1.9 s, median 1.08 s, from the stop over 10 more in paced
	// scale-ins): with the others' heartbeats known, a heartbeat inside
	// that range may come before or after the LeaveGroup
	// (leavetiming.go). Most of the spread is the three store consumers'
	// closes, each waiting out a fetch in flight (up to fetch.max.wait.ms,
	// 500 ms), before the worker leaves.
	LeaveGroupEarliestMs int64 = 370
	LeaveGroupLatestMs   int64 = 2900
	// StartPerPieceMs: a worker creates the connectors and tasks it was
	// assigned one after another; its last "Creating" line came 7.0 ms
	// per piece after its assignment (Theil-Sen over 136 starts of 1 to
	// 42 pieces: median 3 ms for 1 piece, 50 ms for 8, 272 ms for 17, 724
	// ms for 42). The round ends when the member that starts the most has
	// started them all.
	StartPerPieceMs int64 = 7
)

// StopWorkMs is how long a cooperative worker takes to stop pieces
// revoked pieces before it rejoins; 0 for none.
func StopWorkMs(pieces int) int64 {
	if pieces <= 0 {
		return 0
	}
	return StopWorkBaseMs + StopWorkPerPieceMs*int64(pieces)
}

// EagerStopMs is how long an eager worker holding pieces pieces takes to
// stop them all before it rejoins.
func EagerStopMs(pieces int) int64 {
	if pieces <= 0 {
		return 0
	}
	return EagerStopBaseMs + EagerStopPerPieceMs*int64(pieces)
}

// DefaultRoundTime is the round time a plan takes when none is given:
// DefaultRoundTimeMs, or DefaultRoundTimeWithHeartbeatMs with the
// heartbeat interval known.
func DefaultRoundTime(heartbeatIntervalMs int64) int64 {
	if heartbeatIntervalMs > 0 {
		return DefaultRoundTimeWithHeartbeatMs
	}
	return DefaultRoundTimeMs
}

// stopWorkMs is StopWorkMs(pieces) in the calibrated model, else 0.
func (m TimeModel) stopWorkMs(pieces int) int64 {
	if m.HeartbeatIntervalMs <= 0 {
		return 0
	}
	return StopWorkMs(pieces)
}

// LeaveGroupAfterMs is how long after a clean stop the group sees its
// LeaveGroup, for a worker that held nothing (0: at once, the
// uncalibrated model).
func (m TimeModel) LeaveGroupAfterMs() int64 {
	return m.leaveGroupAfterMs(0)
}

// leaveGroupAfterMs is LeaveGroupAfterMs for a worker that held pieces.
func (m TimeModel) leaveGroupAfterMs(pieces int) int64 {
	if m.HeartbeatIntervalMs <= 0 {
		return 0
	}
	return LeaveGroupAfterMsDefault + LeaveGroupPerPieceMs*int64(pieces)
}

// roundMs is how long a round takes from its start to the assigned work
// started, given the most pieces one member held when it started (eager
// members first stop all their work) and the most one member starts.
func (m TimeModel) roundMs(eager bool, mostHeld, mostStarted int) int64 {
	ms := m.RoundTimeMs + m.stopBeforeJoinMs(eager, mostHeld)
	if m.HeartbeatIntervalMs <= 0 {
		return ms
	}
	return ms + StartPerPieceMs*int64(max(mostStarted, 0))
}

// stopBeforeJoinMs is how long after a round starts its members send
// JoinGroup: eager members first stop all their work (the member holding
// the most sets it); cooperative ones, and the uncalibrated model, at once.
func (m TimeModel) stopBeforeJoinMs(eager bool, mostHeld int) int64 {
	if !eager || m.HeartbeatIntervalMs <= 0 {
		return 0
	}
	return EagerStopMs(mostHeld)
}

// awaitLeave keeps a stopped or crashed worker in the group until the
// group sees it go, after ms: no round completes before that. A measured
// first rejoin (FirstRejoinMs) shows the first LeaveGroup came by then.
func (e *engine) awaitLeave(w string, ms int64, kind EventKind) {
	if kind == eventLeaveGroup {
		if e.windows == 0 && e.model.FirstRejoinMs != nil {
			ms = max(min(ms, *e.model.FirstRejoinMs-e.now), 0)
		}
		if e.leaving == nil {
			e.leaving = map[string]bool{}
		}
		e.leaving[w] = true
	}
	e.notices++
	e.noticeAt[w] = e.now + ms
	e.push(e.noticeAt[w], Event{Kind: kind, Worker: w})
}

// JoinWindowMs is how long after a membership change the members rejoin,
// the window in which further changes share the round, where their
// heartbeats' phase is not known (before the plan's first round; after
// it, nextHeartbeat).
func (m TimeModel) JoinWindowMs() int64 {
	if m.HeartbeatIntervalMs <= 0 {
		return 0
	}
	return m.HeartbeatIntervalMs / 2
}

// CrashNoticeMs is how long after a crash the broker expires the member
// as the plan takes it: session.timeout.ms after the kill. The broker
// expires it session.timeout.ms after its last heartbeat, up to an
// interval before the kill, but the others learn it only at their next
// heartbeat (the join window that follows): on Kafka 4.4.0 and 3.9.2 they
// learnt 11.0 to 11.6 s after the kill with a 10 s session and a 3 s
// interval (README, "Calibration"), where expiry plus window averages
// session.timeout.ms plus half an interval.
func (m TimeModel) CrashNoticeMs() int64 {
	return m.SessionTimeoutMs
}

// ClockStatements are the clock's rules for the plan's assumptions.
func (m TimeModel) ClockStatements() []string {
	if m.HeartbeatIntervalMs <= 0 {
		return []string{"heartbeat.interval.ms unknown: every membership change gets its own round, and a crash is noticed session.timeout.ms after the kill (the latest it can be)"}
	}
	before := fmt.Sprintf("before the plan's first round, where nothing shows that phase, taken as half an interval (%d ms) after the change", m.JoinWindowMs())
	crashBefore := fmt.Sprintf("before it taken as %d ms after the kill, then the join window", m.CrashNoticeMs())
	if m.StartPhaseMs != nil {
		before = "before it in the phase the input shows (below)"
		crashBefore = "before it in the phase the input shows"
	}
	out := []string{
		fmt.Sprintf("members learn of a rebalance at their next heartbeat: they heartbeat in step, every heartbeat.interval.ms (%d ms) from their JoinGroup answer in the last round; %s. Membership changes until they rejoin share the round (the join window); a departure still to come (a LeaveGroup, a crash not yet noticed) holds the round until the group sees it", m.HeartbeatIntervalMs, before),
		fmt.Sprintf("a crash is noticed when the broker expires the member (session.timeout.ms after its last heartbeat) and the others heartbeat next: after a round of the plan in their phase, %s", crashBefore),
		fmt.Sprintf("a clean stop sends LeaveGroup once the worker stopped its work and its stores, taken as %d ms after the stop (%d ms more per piece it held); a follow-up after revocations waits for the members revoked nothing, who learn at their next heartbeat (%d ms after their JoinGroup answer in the round); the others rejoin once they stopped the revoked work (%d ms + %d ms per piece, for the member revoked the most)", m.LeaveGroupAfterMs(), LeaveGroupPerPieceMs, m.HeartbeatIntervalMs, StopWorkBaseMs, StopWorkPerPieceMs),
		fmt.Sprintf("a round takes %d ms from the members' JoinGroup to the assignment, then each member starts its assigned pieces one after another (%d ms per piece): the round ends when the member that starts the most has started them; eager members first stop all their work (%d ms + %d ms per piece, for the member holding the most)", m.RoundTimeMs, StartPerPieceMs, EagerStopBaseMs, EagerStopPerPieceMs),
	}
	if m.startPhase != "" {
		out = append(out, "heartbeat phase: "+m.startPhase)
	}
	return out
}

// rejoinKind is how the members learn of the round wanted now, which
// sets how long they take to rejoin.
type rejoinKind uint8

const (
	// rejoinAtHeartbeat: a membership change; the members learn at their
	// next heartbeat (nextHeartbeat; half an interval later, JoinWindowMs,
	// before the plan's first round).
	rejoinAtHeartbeat rejoinKind = iota
	// rejoinAfterInterval: the follow-up of a round in which some member
	// was revoked nothing: the revoked members rejoin at once, but that
	// member learns only at its next heartbeat, a whole interval after
	// its JoinGroup answer in the round (nextHeartbeat).
	rejoinAfterInterval
	// rejoinAtOnce: the follow-up of a round that revoked something from
	// every member: each rejoins as soon as its revoked work stopped.
	rejoinAtOnce
)

// followUpRejoin is how the members rejoin for a follow-up: keptAll says
// some member was revoked nothing.
func followUpRejoin(keptAll bool) rejoinKind {
	if keptAll {
		return rejoinAfterInterval
	}
	return rejoinAtOnce
}

// rejoinWindowMs is how long after the wanted round's cause the members
// have rejoined where their heartbeats' phase is not known (after a round
// of the plan, holdForJoinWindow takes their next heartbeat instead);
// stopMs is how long the member revoked the most takes to stop it (a
// follow-up that waits for nobody's heartbeat).
func (m TimeModel) rejoinWindowMs(k rejoinKind, stopMs int64) int64 {
	switch {
	case m.HeartbeatIntervalMs <= 0:
		return 0
	case k == rejoinAfterInterval:
		return m.HeartbeatIntervalMs
	case k == rejoinAtOnce:
		return stopMs
	}
	return m.JoinWindowMs()
}

// holdForJoinWindow keeps a wanted round open until the members rejoin,
// so that membership changes in the window fold into it; true while the
// round must wait. The round then starts where the window opened.
func (e *engine) holdForJoinWindow() bool {
	w := e.model.rejoinWindowMs(e.window, e.followUpStopMs)
	if w <= 0 || (e.selfRejoin && e.windowOpen < 0) || e.nobodyToLearn() {
		return false
	}
	if e.windowOpen < 0 {
		e.windowOpen, e.windowClose = e.now, e.now+w
		if e.window != rejoinAtOnce && e.phase != noPhase {
			e.windowClose = e.model.nextHeartbeat(e.phase, e.now)
		}
		if e.windows == 0 && e.model.FirstRejoinMs != nil {
			e.windowClose = max(e.now, *e.model.FirstRejoinMs)
		}
		e.windows++
	}
	return e.now < e.windowClose
}

// LearntAtMs is when the members learn of a membership change at plan
// time t before the plan's first round: at their next heartbeat in the
// phase the input shows, else half an interval later (JoinWindowMs).
func (m TimeModel) LearntAtMs(t int64) int64 {
	if m.StartPhaseMs != nil && m.HeartbeatIntervalMs > 0 {
		return m.nextHeartbeat(*m.StartPhaseMs, t)
	}
	return t + m.JoinWindowMs()
}

// noPhase is the engine's phase where nothing shows it.
const noPhase = math.MinInt64

// nextHeartbeat is when members whose heartbeat timers restarted at phase
// (the end of the plan's last round: they synced then) next heartbeat
// after t, and so learn of a rebalance that began at t: phase + k *
// heartbeat.interval.ms, the first such moment after t. Members that took
// part in the same round heartbeat in step; real 4.4.0 members learnt of
// a later change 15.0 s after their last round with a 15 s interval, and
// of a follow-up 2.9 to 3.0 s after it with a 3 s one (README,
// "Restarts faster than the heartbeat interval"). The half interval of
// JoinWindowMs stands only for a phase no input shows (before the plan's
// first round).
func (m TimeModel) nextHeartbeat(phase, t int64) int64 {
	return m.lastHeartbeat(phase, t) + m.HeartbeatIntervalMs
}

// lastHeartbeat is when members whose heartbeat timers restarted at phase
// last heartbeat at or before t (phase itself when none since): a member
// that crashes at t is expired session.timeout.ms after it.
func (m TimeModel) lastHeartbeat(phase, t int64) int64 {
	if t < phase {
		return phase
	}
	return phase + (t-phase)/m.HeartbeatIntervalMs*m.HeartbeatIntervalMs
}

// roundOpened is when the round about to run began (its join window's
// opening, or now), and closes the window.
func (e *engine) roundOpened() int64 {
	start := e.now
	if e.windowOpen >= 0 {
		start = e.windowOpen
	}
	e.windowOpen, e.windowClose, e.selfRejoin, e.window = -1, -1, false, rejoinAtHeartbeat
	for _, m := range e.fresh {
		m.fresh = false
	}
	e.fresh = e.fresh[:0]
	return start
}

// nobodyToLearn reports that every member of the group joined since the
// last round: their JoinGroups are in and no one has a heartbeat to wait
// for.
func (e *engine) nobodyToLearn() bool {
	n := 0
	for _, m := range e.fresh {
		if !m.gone {
			n++
		}
	}
	return n == len(e.members)
}

// modelStatements are the time model's rules in words, printed with every
// plan; calibrated (the heartbeat interval known) words the stop, the
// round and the follow-up as the calibrated clock takes them.
func modelStatements(calibrated bool) []string {
	stop := "a clean stop stops the worker's work and rebalances at once (LeaveGroup); a crash stops the work at once but is noticed only after session.timeout.ms"
	round := "a round takes round_time_ms: eager stops every piece for the round, cooperative only the revoked ones; assigned pieces run from the round's end"
	followUp := "after a round that revoked anything the next round follows at once; after a delay, when the delay (counted from the round's start) ends"
	if calibrated {
		stop = "a clean stop stops the worker's work at once and sends LeaveGroup once it stopped; a crash stops the work at once but is noticed only after session.timeout.ms"
		round = "a round takes round_time_ms: eager members first stop all their work, so every piece is down for that stop and the round; cooperative stops only the revoked ones; assigned pieces run from the round's end"
		followUp = "after a round that revoked anything the next round follows when the members have rejoined (see below); after a delay, when the delay (counted from the round's start) ends"
	}
	return []string{
		stop,
		"a restarted worker rejoins after the restart time with a new member id, holding nothing",
		round,
		followUp,
		"events during a round wait for its end; when the leader leaves, the first remaining member leads with no memory of earlier rounds",
		"eager sends whole assignments: every piece stops and restarts in every round (KEEPS = restarted on the same worker); who gets what follows the sort order of member ids; a restarted worker's new id (here ID.2) keeps its place, as real ids (client.id + random UUID) do only when the workers have distinct client.id values: with Connect's default every worker is connect-1 and a new id lands anywhere, so real eager rounds move more than shown",
		"a restarted worker's new id also decides Java HashMap tie-breaks (which of equally loaded workers is trimmed or served first): piece names, rarely counts, can differ for real ids",
		"the leader's memory at the start is the current ownership plus what the input shows it holding (assumptions.pending: work held back for departed workers, the delay told, a revocation to follow up); with nothing shown, no delay or backoff is pending",
		"not running = configured pieces not owned by a live worker or not started yet; task_ms_not_running integrates that over time",
	}
}

// leftBeforeReturn: a restarted worker that comes back before its old
// incarnation's LeaveGroup was taken to go out sent it before: the old
// process stops everything and leaves before the new one can start. A
// crashed one stays until the broker expires it.
func (e *engine) leftBeforeReturn(old string) error {
	if old == "" || !e.leaving[old] {
		return nil
	}
	delete(e.leaving, old)
	e.notices--
	e.log(MarkStop, old, "%s sends LeaveGroup (before its restart is back)", e.label(old))
	return e.leave(old)
}

// departs makes the group see a stopped or crashed worker go: a clean stop
// at once or at its LeaveGroup, a crash when it is noticed.
func (e *engine) departs(kind EventKind, w string) error {
	switch {
	case kind == EventStop && e.model.LeaveGroupAfterMs() > 0:
		leave := e.model.leaveGroupAfterMs(e.heldBy(w))
		e.noteLeaveHeartbeats(w, leave)
		e.log(MarkStop, w, "%s stops cleanly (its work stops; it sends LeaveGroup once stopped, about %d ms from now)", e.label(w), leave)
		e.awaitLeave(w, leave, eventLeaveGroup)
	case kind == EventStop:
		e.log(MarkStop, w, "%s stops cleanly (its work stops, LeaveGroup)", e.label(w))
		return e.leave(w)
	case e.model.HeartbeatIntervalMs > 0 && e.phase != noPhase:
		ms := e.model.lastHeartbeat(e.phase, e.now) + e.model.SessionTimeoutMs - e.now
		e.log(MarkCrash, w, "%s crashes (its work stops; the broker expires it session.timeout.ms after its last heartbeat, %d ms from now, and the others learn it at their next heartbeat)", e.label(w), ms)
		e.awaitLeave(w, ms, eventNotice)
	case e.model.HeartbeatIntervalMs > 0:
		e.log(MarkCrash, w, "%s crashes (its work stops; the broker expires it session.timeout.ms after its last heartbeat and the others learn it at their next heartbeat: taken as %d ms from now, then the join window)", e.label(w), e.model.CrashNoticeMs())
		e.awaitLeave(w, e.model.CrashNoticeMs(), eventNotice)
	default:
		e.log(MarkCrash, w, "%s crashes (its work stops; the group notices after session.timeout.ms = %d ms)", e.label(w), e.model.SessionTimeoutMs)
		e.awaitLeave(w, e.model.CrashNoticeMs(), eventNotice)
	}
	return nil
}

// Statements are the model's rules in words for a plan: the general
// rules, worded for the calibrated clock when the heartbeat interval is
// known, then ClockStatements.
func (m TimeModel) Statements() []string {
	return append(modelStatements(m.HeartbeatIntervalMs > 0), m.ClockStatements()...)
}
