package whatif

import (
	"fmt"
	"sort"
	"testing"

	"github.com/connectscope/connectscope/plan/timeline"
)

// The classic case: six workers, thirty connectors with three tasks each
// (ninety tasks), scheduled.rebalance.max.delay.ms = 5 minutes, every worker
// restarted for 90 seconds, one at a time (the next stops as the previous one
// is back), clean shutdowns, 2 s per round. The default order restarts the
// leader (w1) last: w2, w3, w4, w5, w6, w1.
//
// Every expectation below is derived from the rules of assignor.md (§0, §3,
// §6.5) and the time model, not copied from a run:
//
//	t=0     w2 stops: its work is lost; the delay window opens, deadline 300 s
//	t=90    w2.2 joins (empty: a candidate), w3 stops;   remaining delay 210 s
//	t=180   w3.2 joins, w4 stops;                          remaining delay 120 s
//	t=270   w4.2 joins, w5 stops;                          remaining delay  30 s
//	t=300   deadline: the lost work of w2..w5 (w5 left only 30 s ago, w5.2 is
//	        not back) is dealt round-robin to the candidates w2.2, w3.2, w4.2
//	        (20 connectors, 60 tasks: 7/7/6 and 20 each); with 5 members the
//	        targets are 6 connectors and 18 tasks, so the same round revokes
//	        the excess (2 tasks from each candidate, 1 connector from the two
//	        with 7): those wait one more round
//	t=302   follow-up: the revoked pieces go to the least loaded (w1, w6)
//	t=360   w5.2 joins, w6 stops: a new window, deadline 660 s
//	t=450   w6.2 joins, w1 stops; w1 was the leader: the new leader has no
//	        memory, so w6's held work and w1's work are new work, assigned at
//	        once to the empty w5.2 and w6.2 (6/18 each); the 660 s deadline
//	        is gone
//	t=540   w1.2 joins: six members, target 5/15; each of the five others
//	        holds 6/18 and is trimmed by 1/3
//	t=542   follow-up: w1.2 gets the 5/15
const (
	classicRestart = int64(90000)
	classicDelay   = int64(300000)
	sec            = int64(1000)
)

func classicPlan(t *testing.T, order []string) *PlanResult {
	t.Helper()
	st := synth(t, "workers=6,connectors=30,tasks=3")
	res, err := RollingRestartPlan(st, testOpts(classicDelay), classicRestart, StopClean, order)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestClassicRollingRestartCooperative(t *testing.T) {
	st := synth(t, "workers=6,connectors=30,tasks=3")
	start := ownedBy(st)
	res := classicPlan(t, nil)
	co := res.Branches[0].Cooperative
	R := testRound

	wantTimes := []int64{0, 90 * sec, 180 * sec, 270 * sec, 300 * sec, 300*sec + R, 360 * sec, 450 * sec, 540 * sec, 540*sec + R}
	if got := roundTimes(co); !equalInts(got, wantTimes) {
		t.Fatalf("rounds at %v, want %v", got, wantTimes)
	}
	wantDelays := []int64{300 * sec, 210 * sec, 120 * sec, 30 * sec, 0, 0, 300 * sec, 0, 0, 0}
	for i, r := range co.Rounds {
		if r.DelayMs != wantDelays[i] {
			t.Errorf("round %d at %ds: delay %d, want %d (the deadline is anchored at the first departure)", r.Round, r.TimeMs/sec, r.DelayMs, wantDelays[i])
		}
	}

	// Rounds 1-4 move nothing: the lost work waits although w2, w3 and w4
	// are back long before the deadline.
	for _, r := range co.Rounds[:4] {
		for _, w := range r.Workers {
			if len(w.AssignedConnectors)+len(w.AssignedTasks)+len(w.RevokedConnectors)+len(w.RevokedTasks) > 0 {
				t.Errorf("round %d (t=%ds) moves work for %s", r.Round, r.TimeMs/sec, w.Worker)
			}
		}
	}

	// At the deadline the lost connectors (sorted) are dealt round-robin to
	// the candidates in the order they were seen empty (§6.5).
	lost := []string{}
	for _, c := range st.Connectors {
		if h := start[c.Name]; h == "w2" || h == "w3" || h == "w4" || h == "w5" {
			lost = append(lost, c.Name)
		}
	}
	sort.Strings(lost)
	// Kafka's output lists a dealt piece that the same round trims only as
	// revoked (never assigned): what was dealt is assigned + revoked.
	deadline := co.Rounds[4]
	for i, cand := range []string{"w2.2", "w3.2", "w4.2"} {
		want := map[string]bool{}
		for j := i; j < len(lost); j += 3 {
			want[lost[j]] = true
		}
		got := roundWorker(t, deadline, cand)
		dealt := append(append([]string{}, got.AssignedConnectors...), got.RevokedConnectors...)
		if len(dealt) != len(want) {
			t.Errorf("%s dealt %v, want %d of %v", cand, dealt, len(want), lost)
		}
		for _, c := range dealt {
			if !want[c] {
				t.Errorf("%s dealt %s, not its round-robin share", cand, c)
			}
		}
		if len(got.AssignedConnectors) != 6 {
			t.Errorf("%s keeps %d connectors, want the target 6", cand, len(got.AssignedConnectors))
		}
		if len(got.AssignedTasks) != 18 || len(got.RevokedTasks) != 2 {
			t.Errorf("%s: assigned %d tasks, revoked %d; want 18 and 2 (dealt 20, target 18)", cand, len(got.AssignedTasks), len(got.RevokedTasks))
		}
	}
	// The returning w2.2 does not get w2's work back: it gets a share of
	// everyone's, including w5's.
	w22 := roundWorker(t, deadline, "w2.2")
	fromOthers := 0
	for _, c := range w22.AssignedConnectors {
		if start[c] != "w2" {
			fromOthers++
		}
	}
	if fromOthers == 0 {
		t.Errorf("w2.2 got only w2's connectors back: %v", w22.AssignedConnectors)
	}

	// Outages of the tasks, by the worker that ran them at the start.
	stopAt := map[string]int64{"w2": 0, "w3": 90 * sec, "w4": 180 * sec, "w5": 270 * sec, "w6": 360 * sec, "w1": 450 * sec}
	lateTasks, lbTasks, wantTaskMs := 0, 0, int64(0)
	for piece, host := range start {
		if isConfiguredConnector(st, piece) {
			continue
		}
		iv := outageOf(co, piece)
		if len(iv) == 0 {
			t.Errorf("%s (on %s) never stopped, but every worker restarts", piece, host)
			continue
		}
		first := iv[0]
		if first.FromMs != stopAt[host] {
			t.Errorf("%s (on %s) stopped at %d, want %d", piece, host, first.FromMs, stopAt[host])
		}
		switch host {
		case "w2", "w3", "w4", "w5":
			// Back at the deadline round's end, or one round later for
			// the pieces trimmed in that round.
			switch first.ToMs {
			case 300*sec + R:
			case 300*sec + 2*R:
				lateTasks++
			default:
				t.Errorf("%s (on %s) not running until %d, want the deadline (%d or %d)", piece, host, first.ToMs, 300*sec+R, 300*sec+2*R)
			}
		case "w6":
			if first.ToMs != 450*sec+R {
				t.Errorf("%s (on w6) not running until %d, want the leader change at 450 s (+R)", piece, first.ToMs)
			}
		case "w1":
			if first.ToMs != 450*sec+R {
				t.Errorf("%s (on w1) not running until %d, want %d", piece, first.ToMs, 450*sec+R)
			}
		}
		for _, later := range iv[1:] {
			switch later {
			case timeline.Interval{FromMs: 540 * sec, ToMs: 540*sec + 2*R}:
				lbTasks++
			case timeline.Interval{FromMs: 360 * sec, ToMs: 450*sec + R}, timeline.Interval{FromMs: 450 * sec, ToMs: 450*sec + R}:
				// a task handed to w6 or w1 at 302 s stops again with them
			default:
				t.Errorf("%s: unexpected outage %v", piece, later)
			}
		}
	}
	if lateTasks != 6 {
		t.Errorf("%d tasks waited for the follow-up round after the deadline, want 6 (2 trimmed from each candidate)", lateTasks)
	}
	if lbTasks != 15 {
		t.Errorf("%d tasks revoked when w1.2 joined, want 15 (1/3 from each of five)", lbTasks)
	}
	// Task-seconds, summed from the derivation: each of w2..w5's 15 tasks
	// waits from its stop to the deadline round's end, 6 of them one round
	// longer; w6 holds 18 tasks (15 + 3 from the follow-up at 302 s) from 360 s
	// to the leader change; w1 holds 18 from 450 s for one round; 15 tasks
	// wait two rounds at 540 s.
	for _, h := range []string{"w2", "w3", "w4", "w5"} {
		wantTaskMs += 15 * (300*sec + R - stopAt[h])
	}
	wantTaskMs += 6*R + 18*(450*sec+R-360*sec) + 18*R + 15*2*R
	if co.Summary.TaskMsNotRunning != wantTaskMs {
		t.Errorf("task ms not running %d, want %d", co.Summary.TaskMsNotRunning, wantTaskMs)
	}
	if co.Summary.LongestTaskOutageMs != 300*sec+2*R {
		t.Errorf("longest task outage %d, want %d (w2's tasks)", co.Summary.LongestTaskOutageMs, 300*sec+2*R)
	}
	if co.Summary.TasksStopped != 90 || co.Summary.ConnectorsStopped != 30 {
		t.Errorf("stopped %d/%d, want every piece", co.Summary.ConnectorsStopped, co.Summary.TasksStopped)
	}
	// At the leader change (450 s) the new leader treats exactly what w1 and
	// w6 held as new work and gives it to the two empty members.
	owner := replayOwners(start, co.Rounds[:7])
	wantNew := map[string]bool{}
	for p, w := range owner {
		if w == "w1" || w == "w6" {
			wantNew[p] = true
		}
	}
	got := map[string]bool{}
	for _, w := range co.Rounds[7].Workers {
		for _, p := range append(append([]string{}, w.AssignedConnectors...), w.AssignedTasks...) {
			got[p] = true
			if w.Worker != "w5.2" && w.Worker != "w6.2" {
				t.Errorf("at 450 s %s got %s; want only the empty w5.2 and w6.2", w.Worker, p)
			}
		}
	}
	if len(got) != len(wantNew) || len(wantNew) != 12+36 {
		t.Errorf("at 450 s %d pieces assigned, w1 and w6 held %d (want 48)", len(got), len(wantNew))
	}
	for p := range wantNew {
		if !got[p] {
			t.Errorf("at 450 s %s (held by %s) was not reassigned", p, owner[p])
		}
	}
	if co.Summary.TasksMoved == 0 {
		t.Errorf("nothing moved between workers")
	}
	checkBalanced(t, co, 30, 90)
	if co.Summary.BalancedAfterMs == nil || *co.Summary.BalancedAfterMs != 540*sec+2*R {
		t.Errorf("balanced at %s, want %d", ptrText(co.Summary.BalancedAfterMs), 540*sec+2*R)
	}
}

func TestClassicRollingRestartEager(t *testing.T) {
	res := classicPlan(t, nil)
	eg := res.Branches[0].Eager
	R := testRound
	// Eager: one round per membership change, no delay, no follow-up; every
	// round stops all ninety tasks for the round time.
	want := []int64{0, 90 * sec, 180 * sec, 270 * sec, 360 * sec, 450 * sec, 540 * sec}
	if got := roundTimes(eg); !equalInts(got, want) {
		t.Fatalf("eager rounds at %v, want %v", got, want)
	}
	if eg.Summary.TaskMsNotRunning != int64(len(want))*90*R {
		t.Errorf("eager task ms %d, want %d", eg.Summary.TaskMsNotRunning, int64(len(want))*90*R)
	}
	if eg.Summary.LongestTaskOutageMs != R || eg.Summary.TasksStopped != 90 {
		t.Errorf("eager: longest outage %d, stopped %d", eg.Summary.LongestTaskOutageMs, eg.Summary.TasksStopped)
	}
	for _, o := range eg.Outages {
		if len(o.Intervals) != len(want) {
			t.Errorf("%s stopped %d times, want once per round", o.Piece, len(o.Intervals))
			break
		}
	}
	checkBalanced(t, eg, 30, 90)
}

// Restarting the leader first: every departing worker is the leader of the
// moment (the first remaining member leads next), so no work is ever held
// for the delay (assignor.md §0, first exception).
func TestClassicRollingRestartLeaderFirst(t *testing.T) {
	res := classicPlan(t, []string{"w1", "w2", "w3", "w4", "w5", "w6"})
	co := res.Branches[0].Cooperative
	for _, r := range co.Rounds {
		if r.DelayMs != 0 {
			t.Errorf("round %d at %ds: delay %d, want none", r.Round, r.TimeMs/sec, r.DelayMs)
		}
	}
	if co.Summary.LongestTaskOutageMs > 2*testRound {
		t.Errorf("longest outage %d, want at most two rounds", co.Summary.LongestTaskOutageMs)
	}
	checkBalanced(t, co, 30, 90)
}

func roundWorker(t *testing.T, r timeline.RoundView, w string) timeline.WorkerRoundView {
	t.Helper()
	for _, x := range r.Workers {
		if x.Worker == w {
			return x
		}
	}
	t.Fatalf("round %d has no worker %s", r.Round, w)
	return timeline.WorkerRoundView{}
}

// replayOwners applies the rounds' assigned and revoked lists to the
// starting owners: each piece's last owner (departed members keep theirs).
func replayOwners(start map[string]string, rounds []timeline.RoundView) map[string]string {
	owner := map[string]string{}
	for p, w := range start {
		owner[p] = w
	}
	for _, r := range rounds {
		for _, w := range r.Workers {
			for _, p := range append(append([]string{}, w.RevokedConnectors...), w.RevokedTasks...) {
				if owner[p] == w.Worker {
					delete(owner, p)
				}
			}
		}
		for _, w := range r.Workers {
			for _, p := range append(append([]string{}, w.AssignedConnectors...), w.AssignedTasks...) {
				owner[p] = w.Worker
			}
		}
	}
	return owner
}

func checkBalanced(t *testing.T, tl *timeline.Timeline, conns, tasks int) {
	t.Helper()
	checkConservation(t, tl, conns, tasks)
	n := len(tl.Summary.Final)
	for _, w := range tl.Summary.Final {
		if w.Connectors < conns/n || w.Connectors > (conns+n-1)/n || w.Tasks < tasks/n || w.Tasks > (tasks+n-1)/n {
			t.Errorf("%s: %s ends with %d/%d, not balanced", tl.Protocol, w.Worker, w.Connectors, w.Tasks)
		}
	}
}

func ptrText(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
