package whatif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

func hbOpts(maxDelay, hb int64) timeline.Options {
	o := testOpts(maxDelay)
	o.HeartbeatIntervalMs = hb
	return o
}

// hbRoll plans a clean roll of workers (4 connectors of 2 tasks), each
// away restartMs, with heartbeat interval hb and no delay.
func hbRoll(t *testing.T, workers int, hb, restartMs int64) (*PlanResult, timeline.Options) {
	t.Helper()
	o := hbOpts(0, hb)
	res, err := RollingRestartPlan(synth(t, fmt.Sprintf("workers=%d,connectors=4,tasks=2", workers)), o, restartMs, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, o
}

// A worker that is back within the join window shares the round with its
// departure and with the next worker's stop, as real groups fold them
// (restarts faster than the heartbeat interval): fewer rounds than one per
// event, and the same assignment as the merged sequence.
func TestFastRestartsShareRounds(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	slow, err := RollingRestartPlan(st, hbOpts(0, 0), 1000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Back half a second after its LeaveGroup (the calibrated model sends
	// it LeaveGroupAfterMs after the stop): within the join window.
	leave := timeline.LeaveGroupAfterMsDefault
	fast, err := RollingRestartPlan(st, hbOpts(0, 3000), leave+500, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, rf := slow.Branches[0].Cooperative.Rounds, fast.Branches[0].Cooperative.Rounds
	if len(rf) >= len(rs) {
		t.Fatalf("with a 3 s heartbeat, 1 s restarts take %d rounds, without %d: want fewer", len(rf), len(rs))
	}
	first := rf[0]
	if first.TimeMs != leave || !strings.Contains(first.Trigger, "w2 left") || !strings.Contains(first.Trigger, "w2.2 joined") {
		t.Errorf("first round at %d for %q: want w2's stop and return in one round opened at its LeaveGroup, %d", first.TimeMs, first.Trigger, leave)
	}
	if fast.Assumptions.JoinWindowMs != 1500 || !strings.Contains(strings.Join(fast.Assumptions.Model, "\n"), "join window") {
		t.Errorf("assumptions %+v", fast.Assumptions)
	}
	if !strings.Contains(strings.Join(fast.Notes, "\n"), fmt.Sprintf("timing-dependent: a restart of %s is within heartbeat.interval.ms (3s) of its stop's LeaveGroup", Millis(leave+500))) {
		t.Errorf("a restart within the heartbeat interval is not said to be timing-dependent: %q", fast.Notes)
	}
	// Slow restarts (back more than an interval after the LeaveGroup)
	// keep one round per event.
	slower, err := RollingRestartPlan(st, hbOpts(0, 3000), leave+3000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, want := len(slower.Branches[0].Cooperative.Rounds), len(rs); n != want {
		t.Errorf("restarts of %d ms with a 3 s heartbeat: %d rounds, want %d as without windows", leave+3000, n, want)
	}
	if strings.Contains(strings.Join(slower.Notes, "\n"), "timing-dependent") {
		t.Errorf("restarts of %d ms with a 3 s heartbeat are said to be timing-dependent: %q", leave+3000, slower.Notes)
	}
}

// Paced joins inside one window share a round.
func TestJoinsInOneWindowShareARound(t *testing.T) {
	st := synth(t, "workers=2,connectors=4,tasks=2")
	res, err := JoinWorkersPlan(st, hbOpts(60000, 3000), JoinOptions{Workers: []string{"w3", "w4"}, PaceMs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Branches[0].Cooperative.Rounds[0]
	if len(r.Workers) != 4 {
		t.Errorf("first round has %d members, want both joiners in it", len(r.Workers))
	}
	res, err = JoinWorkersPlan(st, hbOpts(60000, 0), JoinOptions{Workers: []string{"w3", "w4"}, PaceMs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Branches[0].Cooperative.Rounds[0].Workers); n != 3 {
		t.Errorf("without a heartbeat interval the first round has %d members, want 3", n)
	}
}

// A crash is noticed when the broker expires the member and the others
// heartbeat next: session.timeout.ms after the kill, then the join window
// (real workers learnt 11.0 to 11.6 s after a kill with 10 s and 3 s).
func TestCrashNoticedFromLastHeartbeat(t *testing.T) {
	st := synth(t, "workers=3,connectors=3,tasks=2")
	res, err := LeavePlan(st, hbOpts(60000, 3000), "w2", StopCrash, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Branches[0].Cooperative.Rounds[0]
	if r.TimeMs != 10000 || r.EndMs != 10000+1500+testRound {
		t.Errorf("first round %d..%d, want opened at 10000 (expiry) and ended at %d (rejoin at 11500 + round)", r.TimeMs, r.EndMs, 11500+testRound)
	}
	if res.Assumptions.CrashNoticedAfterMs != 10000 {
		t.Errorf("crash_noticed_after_ms %d", res.Assumptions.CrashNoticedAfterMs)
	}
	res, _ = LeavePlan(st, hbOpts(60000, 0), "w2", StopCrash, nil)
	if r := res.Branches[0].Cooperative.Rounds[0]; r.TimeMs != 10000 || r.EndMs != 10000+testRound {
		t.Errorf("without the interval: round %d..%d, want opened at 10000 without a window", r.TimeMs, r.EndMs)
	}
}

// A delay that runs out is every member's own timer: the round starts at
// the deadline, with no join window.
func TestDelayedRoundHasNoJoinWindow(t *testing.T) {
	st := synth(t, "workers=3,connectors=3,tasks=2")
	res, err := LeavePlan(st, hbOpts(15000, 3000), "w2", StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := res.Branches[0].Cooperative.Rounds
	leave := timeline.LeaveGroupAfterMsDefault
	if len(rs) != 2 || rs[0].TimeMs != leave || rs[1].TimeMs != leave+1500+15000 {
		t.Fatalf("rounds at %d and %d, want the LeaveGroup at %d (told at its close, 1500 later) and the deadline 15000 after that", rs[0].TimeMs, rs[len(rs)-1].TimeMs, leave)
	}
	if m := strings.Join(res.Assumptions.Model, "\n"); !strings.Contains(m, "sends LeaveGroup once it stopped") || strings.Contains(m, "rebalances at once") {
		t.Errorf("the model's words for a clean stop with the interval known: %q", m)
	}
}

// With the heartbeat interval known the round time defaults to the
// calibrated 1 s (the wait for the members is the join window); a given
// round time stays.
func TestRoundTimeDefaultFollowsHeartbeat(t *testing.T) {
	hb := int64(3000)
	opts, err := timeline.Settings{HeartbeatIntervalMs: &hb, RoundTimeMs: timeline.DefaultRoundTimeMs}.Options(cluster.State{})
	if err != nil || opts.RoundTimeMs != timeline.DefaultRoundTimeWithHeartbeatMs {
		t.Errorf("heartbeat known: round time %d (%v), want %d", opts.RoundTimeMs, err, timeline.DefaultRoundTimeWithHeartbeatMs)
	}
	opts, _ = timeline.Settings{HeartbeatIntervalMs: &hb, RoundTimeMs: 2000, Given: map[string]bool{timeline.SettingRoundTime: true}}.Options(cluster.State{})
	if opts.RoundTimeMs != 2000 {
		t.Errorf("given round time replaced: %d", opts.RoundTimeMs)
	}
	opts, _ = timeline.Settings{RoundTimeMs: timeline.DefaultRoundTimeMs}.Options(cluster.State{})
	if opts.RoundTimeMs != timeline.DefaultRoundTimeMs {
		t.Errorf("no heartbeat: round time %d", opts.RoundTimeMs)
	}
}

// A measured first rejoin decides the first fold as the real group did:
// members that rejoined before the return leave it out of its stop's
// round, later ones let it in, whatever half an interval would say.
func TestFirstRejoinDecidesTheFirstFold(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	first := func(restartMs int64, rejoin *int64) timeline.RoundView {
		t.Helper()
		o := hbOpts(0, 3000)
		o.FirstRejoinMs = rejoin
		res, err := RollingRestartPlan(st, o, restartMs, StopClean, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Branches[0].Cooperative.Rounds[0]
	}
	early, late := int64(500), int64(2500)
	model := first(1000, nil)
	if !strings.Contains(model.Trigger, "w2.2 joined") {
		t.Fatalf("model: a 1 s return is not in the first round (%q)", model.Trigger)
	}
	// In the model the return at 1 s brings its stop's LeaveGroup forward
	// to then; measured, the members rejoined at 0.5 s, so the LeaveGroup
	// came by then and the window closed before the return.
	if r := first(1000, &early); strings.Contains(r.Trigger, "w2.2 joined") || r.EndMs != early+testRound+startOf(r) {
		t.Errorf("members back at 0.5 s: round %q ends at %d ms, want without the return and at %d", r.Trigger, r.EndMs, early+testRound+startOf(r))
	}
	// A return later than the LeaveGroup's model and its window stays
	// out.
	if r := first(timeline.LeaveGroupAfterMsDefault+2000, nil); strings.Contains(r.Trigger, "w2.2 joined") {
		t.Errorf("model: a return 2 s after the window shares the first round (%q)", r.Trigger)
	}
	if r := first(2000, &late); !strings.Contains(r.Trigger, "w2.2 joined") {
		t.Errorf("members back at 2.5 s: the 2 s return is not in the first round (%q)", r.Trigger)
	}
}

// A window waits only for the members that were in the group before it:
// when the last of them stops (a 2-worker roll whose first worker is back
// before the other heard of its stop), nobody is left to learn of the
// rebalance and it completes at once, as a real 4.4 group did, instead of
// holding the next return in the same round.
func TestWindowEndsWhenNobodyIsLeftToLearn(t *testing.T) {
	res, o := hbRoll(t, 2, 15000, 3000)
	rs := res.Branches[0].Cooperative.Rounds
	if len(rs) < 2 {
		t.Fatalf("%d rounds, want the second return in a round of its own", len(rs))
	}
	first := rs[0]
	if strings.Count(first.Trigger, "left") != 2 || strings.Count(first.Trigger, "joined") != 1 || first.EndMs != 3000+timeline.LeaveGroupAfterMsDefault+o.RoundTimeMs+startOf(first) {
		t.Errorf("first round %q from %d to %d ms: want both stops and the first return, run at the second stop's LeaveGroup (3 s + %d ms)", first.Trigger, first.TimeMs, first.EndMs, timeline.LeaveGroupAfterMsDefault)
	}
	if !strings.Contains(rs[1].Trigger, "joined") || len(rs[1].Workers) != 2 {
		t.Errorf("second round %q with %d workers: want the second return beside the first", rs[1].Trigger, len(rs[1].Workers))
	}
}

// After a round that revoked something, the follow-up waits for the
// members revoked nothing (a joiner, here): they learn of it at their
// next heartbeat, a whole interval after the round. Eager members stop
// all their work before they rejoin: the eager round is the stop of the
// member holding the most, the round, and the start of the member that
// starts the most, one piece after another.
func TestFollowUpAndEagerRoundFollowTheWorkers(t *testing.T) {
	st := synth(t, "workers=2,connectors=4,tasks=3")
	opts := hbOpts(60000, 3000)
	res, err := JoinPlan(st, opts, []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	rs := res.Branches[0].Cooperative.Rounds
	if len(rs) != 2 || !strings.Contains(rs[1].Trigger, "revocations") {
		t.Fatalf("a cooperative join: %d rounds, want a round that revokes and its follow-up", len(rs))
	}
	// The members' heartbeat timers restarted with their JoinGroup answer,
	// at the round's start; each round ends once the worker assigned the
	// most started it.
	if start := rs[0].EndMs - opts.RoundTimeMs - startOf(rs[0]); rs[1].TimeMs != rs[0].EndMs || rs[1].EndMs != start+3000+opts.RoundTimeMs+startOf(rs[1]) {
		t.Errorf("follow-up %d..%d after a round from %d to %d: want it opened at the end and ended a heartbeat interval (3000) after the start, a round (%d) and the start (%d) later", rs[1].TimeMs, rs[1].EndMs, start, rs[0].EndMs, opts.RoundTimeMs, startOf(rs[1]))
	}
	held := 0
	for _, w := range st.Workers {
		held = max(held, w.Owned.Len())
	}
	e := res.Branches[0].Eager.Rounds
	start := timeline.StartPerPieceMs * int64(mostStarted(e[0], true))
	if len(e) != 1 || held == 0 || e[0].EndMs-e[0].TimeMs != 1500+timeline.EagerStopMs(held)+opts.RoundTimeMs+start {
		t.Errorf("eager join: round %d..%d, want the join window (1500), the stop of %d pieces (%d), the round (%d) and the start (%d)", e[0].TimeMs, e[0].EndMs, held, timeline.EagerStopMs(held), opts.RoundTimeMs, start)
	}
}

// After a round of the plan the members heartbeat in step from their
// JoinGroup answer in it, so a later change is learnt at their next
// heartbeat in that phase, not half an interval after it: a 2-worker
// roll with a 15 s interval and 3 s restarts (real 4.4.0 members learnt
// of the second return 15.0 s after their round, and of its follow-up
// 15.0 s after the next).
func TestLaterChangesLearntAtTheMembersHeartbeat(t *testing.T) {
	res, o := hbRoll(t, 2, 15000, 3000)
	rs := res.Branches[0].Cooperative.Rounds
	if len(rs) != 3 {
		t.Fatalf("%d rounds, want the folded first round, the second return and its follow-up", len(rs))
	}
	// Round 1 runs at w1's LeaveGroup (3 s + LeaveGroupAfterMs); w1.2 is
	// back during it, 6 s after the start.
	phase := 3000 + timeline.LeaveGroupAfterMsDefault
	if rs[0].EndMs != phase+o.RoundTimeMs+startOf(rs[0]) {
		t.Fatalf("first round ends at %d, want %d", rs[0].EndMs, phase+o.RoundTimeMs+startOf(rs[0]))
	}
	if want := phase + 15000 + o.RoundTimeMs + startOf(rs[1]); !strings.Contains(rs[1].Trigger, "w1.2 joined") || rs[1].EndMs != want {
		t.Errorf("second round %q ends at %d, want the return learnt at the next heartbeat, %d ms after round 1 started, ending at %d", rs[1].Trigger, rs[1].EndMs, 15000, want)
	}
	if want := phase + 2*15000 + o.RoundTimeMs + startOf(rs[2]); rs[2].EndMs != want {
		t.Errorf("follow-up ends at %d, want a whole interval after round 2 started, %d", rs[2].EndMs, want)
	}
}

// A departure still to come holds the round, not the window: in a roll of
// 3 workers the next worker stops when the one before is back; the others
// learn of that return at their next heartbeat and wait in the rebalance
// until the stopping worker's LeaveGroup completes it, as the broker does.
func TestPendingDepartureHoldsTheRoundNotTheWindow(t *testing.T) {
	res, o := hbRoll(t, 3, 3000, 5000)
	tl := res.Branches[0].Cooperative
	leaveAt := int64(-1)
	for _, e := range tl.Events {
		if e.Event == "w3 sends LeaveGroup" {
			leaveAt = e.TimeMs
		}
	}
	for _, r := range tl.Rounds {
		if strings.Contains(r.Trigger, "w3 left") {
			if leaveAt < 0 || r.EndMs != leaveAt+o.RoundTimeMs+startOf(r) || r.TimeMs >= leaveAt {
				t.Errorf("round %q from %d to %d: want it opened at w2.2's return and run at w3's LeaveGroup (%d)", r.Trigger, r.TimeMs, r.EndMs, leaveAt)
			}
			return
		}
	}
	t.Fatalf("no round with w3's departure: %+v", tl.Rounds)
}

// A crash after a round of the plan is expired session.timeout.ms after
// the member's last heartbeat in the phase that round set, and the others
// learn it at their next heartbeat.
func TestCrashAfterARoundNoticedFromItsLastHeartbeat(t *testing.T) {
	st := synth(t, "workers=3,connectors=4,tasks=2")
	o := hbOpts(60000, 3000)
	res, err := LeaveWorkersPlan(st, o, LeaveOptions{Workers: []string{"w2", "w3"}, Stop: StopCrash, PaceMs: 20000})
	if err != nil {
		t.Fatal(err)
	}
	rs := res.Branches[0].Cooperative.Rounds
	if len(rs) < 2 || !strings.Contains(rs[1].Trigger, "w3 left") {
		t.Fatalf("rounds %+v, want w3's departure in the second", rs)
	}
	// Round 1 starts at 11500 (the first crash noticed at 10000, the
	// window's half interval: no phase known yet). w3 crashes at 20000;
	// its last heartbeat was at 17500, it expires at 27500 and the others
	// heartbeat next at 29500.
	if rs[1].TimeMs != 27500 || rs[1].EndMs != 29500+o.RoundTimeMs {
		t.Errorf("second round %d..%d, want opened at the expiry (27500) and run at the next heartbeat (29500)", rs[1].TimeMs, rs[1].EndMs)
	}
}

// startOf is how long the cooperative round r's start takes: the worker
// assigned the most starts its pieces one after another.
func startOf(r timeline.RoundView) int64 {
	return timeline.StartPerPieceMs * int64(mostStarted(r, false))
}

// mostStarted is the most pieces one worker starts at the end of round r:
// what it was assigned, or under eager all it holds.
func mostStarted(r timeline.RoundView, eager bool) int {
	n := 0
	for _, w := range r.Workers {
		if eager {
			n = max(n, w.Connectors+w.Tasks)
		} else {
			n = max(n, len(w.AssignedConnectors)+len(w.AssignedTasks))
		}
	}
	return n
}
