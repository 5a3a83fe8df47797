package timeline

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// A clean stop's round depends on when its LeaveGroup reaches the broker,
// which the plan takes from a median (LeaveGroupAfterMs): with the others'
// heartbeat phase known, a heartbeat inside the measured range of the
// LeaveGroup (LeaveGroupEarliestMs to LeaveGroupLatestMs after the stop)
// makes the round an interval earlier or later than planned. Real paced
// scale-ins went either way at the same moment of the same phase.

// LeaveLearntRange is when the others can learn of a clean stop at plan
// time t before the plan's first round, in the phase the input shows: the
// heartbeat after the earliest LeaveGroup measured, the one the plan takes
// (after LeaveGroupAfterMs), and the one after the latest measured. ok is
// false without a phase (the half-interval window stands for all of them)
// or when they are one heartbeat.
func (m TimeModel) LeaveLearntRange(t int64) (earliest, planned, latest int64, ok bool) {
	if m.StartPhaseMs == nil || m.HeartbeatIntervalMs <= 0 {
		return 0, 0, 0, false
	}
	return m.leaveRange(*m.StartPhaseMs, t, m.LeaveGroupAfterMs())
}

// leaveRange is LeaveLearntRange in a given phase, for a LeaveGroup taken
// leave after the stop at t.
func (m TimeModel) leaveRange(phase, t, leave int64) (earliest, planned, latest int64, ok bool) {
	earliest = m.nextHeartbeat(phase, t+LeaveGroupEarliestMs)
	planned = m.nextHeartbeat(phase, t+leave)
	latest = m.nextHeartbeat(phase, t+LeaveGroupLatestMs)
	return earliest, planned, latest, earliest != latest
}

// LeaveRangeWords is the clause both timing notes of a clean stop end
// with: the measured range of the LeaveGroup and the heartbeats from
// earliest to latest it reaches, an interval apart ("… at the heartbeat
// at 1.07s or 4.07s").
func (m TimeModel) LeaveRangeWords(earliest, latest int64) string {
	var at []string
	for t := earliest; t <= latest && m.HeartbeatIntervalMs > 0; t += m.HeartbeatIntervalMs {
		at = append(at, format.Millis(t))
	}
	return fmt.Sprintf("clean stops sent it %s to %s after the stop, so a real round can start at the heartbeat at %s",
		format.Millis(LeaveGroupEarliestMs), format.Millis(LeaveGroupLatestMs), strings.Join(at, " or "))
}

// noteLeaveHeartbeats notes a clean stop after the plan's first round
// whose LeaveGroup may come before or after one of the members'
// heartbeats (their phase is the plan's own, from their last round). The
// first stop of a what-if plan is noted there, in the input's phase; a
// stop while a round runs, is due or may come first (a crash not yet
// noticed, a join window, a follow-up, a delay ending within the range)
// is left out: its LeaveGroup may join that round.
func (e *engine) noteLeaveHeartbeats(w string, leave int64) {
	quiet := e.now >= e.busyUntil && !e.wantRound && e.notices == 0 && e.windowOpen < 0 && e.followUpAt < 0
	if len(e.rounds) == 0 || e.phase == noPhase || e.model.HeartbeatIntervalMs <= 0 || !quiet {
		return
	}
	earliest, planned, latest, ok := e.model.leaveRange(e.phase, e.now, leave)
	if !ok || (e.delayedAt >= 0 && e.delayedAt <= latest) {
		return
	}
	e.notes = append(e.notes, fmt.Sprintf("timing-dependent: %s stops cleanly at %s; the members, heartbeating in step since round %d, learn of its LeaveGroup (taken as %s after the stop) at their heartbeat at %s; %s, and every figure after it moves with it",
		e.label(w), format.Millis(e.now), len(e.rounds), format.Millis(leave), format.Millis(planned), e.model.LeaveRangeWords(earliest, latest)))
}
