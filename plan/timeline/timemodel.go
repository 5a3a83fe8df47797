package timeline

import "fmt"

// The clock of a rebalance, in one place. Kafka's assignor decides what
// moves; when it happens follows the group protocol:
//
//   - Noticing. A membership change (a LeaveGroup, a JoinGroup, a session
//     expiry) puts the group into PreparingRebalance; the members learn it
//     at their next heartbeat. Members that completed the same round
//     heartbeat in step, so they learn together, on average half a
//     heartbeat.interval.ms after the change (up to a whole one). Every
//     membership change the broker sees before they rejoin is part of the
//     same generation: a worker that comes back, or the next one that
//     stops, within that window shares the round (the join window).
//     The window waits only for the members that were in the group before
//     it: once every one of them has left (the last worker of a roll
//     stopping while the one before it is back), nobody is left to learn
//     of the rebalance and it completes at once.
//   - A crash is noticed when the broker expires the member,
//     session.timeout.ms after its last heartbeat: on average half a
//     heartbeat interval earlier than session.timeout.ms after the kill.
//   - A delay that runs out is every member's own timer: they were told the
//     same delay in the same round and rejoin together at once, without a
//     join window.
//   - The round itself (join, sync, stopping the revoked work, starting the
//     assigned work) takes RoundTimeMs from the moment the members rejoin.
//     Eager members stop everything when they rejoin, so under eager every
//     piece is down for RoundTimeMs, not for the join window.
//
// Without the heartbeat interval (0) the window is empty and a crash is
// noticed session.timeout.ms after the kill: each event gets its own round,
// as plans did before the interval was known.

// DefaultRoundTimeWithHeartbeatMs is the round time when the heartbeat
// interval is known: the join window then carries the wait for the
// members, and the round is what remains (join completed, sync, revoked
// work stopped, assigned work started). On Kafka 4.4.0 (README,
// "Calibration"): 2 s on top of the join window overestimated a join by
// 81%; with 1 s a join was +20%, a clean leave +2%, a crash -7% against
// the workers' logs, all running again within 2.4 s.
const DefaultRoundTimeWithHeartbeatMs int64 = 1000

// DefaultRoundTime is the round time a plan takes when none is given:
// DefaultRoundTimeMs, or DefaultRoundTimeWithHeartbeatMs with the
// heartbeat interval known.
func DefaultRoundTime(heartbeatIntervalMs int64) int64 {
	if heartbeatIntervalMs > 0 {
		return DefaultRoundTimeWithHeartbeatMs
	}
	return DefaultRoundTimeMs
}

// JoinWindowMs is how long after a membership change the members rejoin,
// the window in which further changes share the round.
func (m TimeModel) JoinWindowMs() int64 {
	if m.HeartbeatIntervalMs <= 0 {
		return 0
	}
	return m.HeartbeatIntervalMs / 2
}

// CrashNoticeMs is how long after a crash the broker expires the member.
func (m TimeModel) CrashNoticeMs() int64 {
	return max(m.SessionTimeoutMs-m.HeartbeatIntervalMs/2, 0)
}

// ClockStatements are the clock's rules for the plan's assumptions.
func (m TimeModel) ClockStatements() []string {
	if m.HeartbeatIntervalMs <= 0 {
		return []string{"heartbeat.interval.ms unknown: every membership change gets its own round, and a crash is noticed session.timeout.ms after the kill (the latest it can be)"}
	}
	return []string{
		fmt.Sprintf("members learn of a rebalance at their next heartbeat, taken as half of heartbeat.interval.ms (%d ms) after the change (up to %d ms): membership changes within that join window share the round", m.JoinWindowMs(), m.HeartbeatIntervalMs),
		fmt.Sprintf("a crash is noticed session.timeout.ms after the member's last heartbeat, taken as %d ms after the kill (between %d and %d ms)", m.CrashNoticeMs(), max(m.SessionTimeoutMs-m.HeartbeatIntervalMs, 0), m.SessionTimeoutMs),
	}
}

// holdForJoinWindow keeps a wanted round open until the members rejoin,
// so that membership changes in the window fold into it; true while the
// round must wait. The round then starts where the window opened.
func (e *engine) holdForJoinWindow() bool {
	w := e.model.JoinWindowMs()
	if w <= 0 || (e.selfRejoin && e.windowOpen < 0) || e.nobodyToLearn() {
		return false
	}
	if e.windowOpen < 0 {
		e.windowOpen, e.windowClose = e.now, e.now+w
		if e.windows == 0 && e.model.FirstRejoinMs != nil {
			e.windowClose = max(e.now, *e.model.FirstRejoinMs)
		}
		e.windows++
	}
	return e.now < e.windowClose
}

// roundOpened is when the round about to run began (its join window's
// opening, or now), and closes the window.
func (e *engine) roundOpened() int64 {
	start := e.now
	if e.windowOpen >= 0 {
		start = e.windowOpen
	}
	e.windowOpen, e.windowClose, e.selfRejoin = -1, -1, false
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

// ModelStatements are the time model's rules in words, printed with every plan.
func ModelStatements() []string {
	return []string{
		"a clean stop stops the worker's work and rebalances at once (LeaveGroup); a crash stops the work at once but is noticed only after session.timeout.ms",
		"a restarted worker rejoins after the restart time with a new member id, holding nothing",
		"a round takes round_time_ms: eager stops every piece for the round, cooperative only the revoked ones; assigned pieces run from the round's end",
		"after a round that revoked anything the next round follows at once; after a delay, when the delay (counted from the round's start) ends",
		"events during a round wait for its end; when the leader leaves, the first remaining member leads with no memory of earlier rounds",
		"eager sends whole assignments: every piece stops and restarts in every round (KEEPS = restarted on the same worker); who gets what follows the sort order of member ids; a restarted worker's new id (here ID.2) keeps its place, as real ids (client.id + random UUID) do only when the workers have distinct client.id values: with Connect's default every worker is connect-1 and a new id lands anywhere, so real eager rounds move more than shown",
		"a restarted worker's new id also decides Java HashMap tie-breaks (which of equally loaded workers is trimmed or served first): piece names, rarely counts, can differ for real ids",
		"the leader's memory at the start is the current ownership plus what the input shows it holding (assumptions.pending: work held back for departed workers, the delay told, a revocation to follow up); with nothing shown, no delay or backoff is pending",
		"not running = configured pieces not owned by a live worker or not started yet; task_ms_not_running integrates that over time",
	}
}
