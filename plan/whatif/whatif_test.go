package whatif

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

const testRound = int64(2000)

func testOpts(maxDelay int64) timeline.Options {
	return timeline.Options{MaxDelayMs: maxDelay, RoundTimeMs: testRound, SessionTimeoutMs: 10000}
}

func synth(t *testing.T, spec string) cluster.State {
	t.Helper()
	s, err := cluster.ParseSynthetic(spec)
	if err != nil {
		t.Fatal(err)
	}
	return cluster.SyntheticState(s)
}

// ownedBy maps every piece to the member that owns it at the start.
func ownedBy(st cluster.State) map[string]string {
	out := map[string]string{}
	for _, w := range st.Workers {
		for _, k := range cluster.KeysOf(w.Owned) {
			out[timeline.PieceName(k)] = w.ID
		}
	}
	return out
}

func outageOf(tl *timeline.Timeline, piece string) []timeline.Interval {
	for _, o := range tl.Outages {
		if o.Piece == piece {
			return o.Intervals
		}
	}
	return nil
}

func finalOf(tl *timeline.Timeline, worker string) (timeline.WorkerCount, bool) {
	for _, w := range tl.Summary.Final {
		if w.Worker == worker {
			return w, true
		}
	}
	return timeline.WorkerCount{}, false
}

func totalTasks(st cluster.State) int {
	n := 0
	for _, c := range st.Connectors {
		n += c.Tasks
	}
	return n
}

// checkConservation: at the end every configured piece is owned exactly
// once, and the final counts add up.
func checkConservation(t *testing.T, tl *timeline.Timeline, connectors, tasks int) {
	t.Helper()
	c, tk := 0, 0
	for _, w := range tl.Summary.Final {
		c += w.Connectors
		tk += w.Tasks
	}
	if c != connectors || tk != tasks {
		t.Errorf("%s: final owns %d/%d, configured %d/%d", tl.Protocol, c, tk, connectors, tasks)
	}
	if len(tl.Summary.NotRunningAtEnd) != 0 {
		t.Errorf("%s: not running at the end: %v", tl.Protocol, tl.Summary.NotRunningAtEnd)
	}
}

func TestJoinCooperativeRevokesThenAssigns(t *testing.T) {
	st := synth(t, "workers=3,connectors=10,tasks=4")
	res, err := JoinPlan(st, testOpts(300000), []string{"w4"})
	if err != nil {
		t.Fatal(err)
	}
	co, eg := res.Branches[0].Cooperative, res.Branches[0].Eager
	// 3.4+ (assignor.md §0 "New worker joins"): round 1 only trims, round 2
	// deals the trimmed pieces to the newcomer.
	if len(co.Rounds) != 2 {
		t.Fatalf("cooperative: %d rounds, want 2", len(co.Rounds))
	}
	revoked, assigned := 0, 0
	for _, w := range co.Rounds[0].Workers {
		revoked += len(w.RevokedConnectors) + len(w.RevokedTasks)
		if len(w.AssignedConnectors)+len(w.AssignedTasks) != 0 {
			t.Errorf("round 1 assigns to %s", w.Worker)
		}
	}
	for _, w := range co.Rounds[1].Workers {
		if w.Worker != "w4" && len(w.AssignedConnectors)+len(w.AssignedTasks) > 0 {
			t.Errorf("round 2 assigns to %s, want only the newcomer", w.Worker)
		}
		assigned += len(w.AssignedConnectors) + len(w.AssignedTasks)
	}
	w4, _ := finalOf(co, "w4")
	// 10 connectors and 40 tasks over 4 workers: the newcomer ends with 2 or 3
	// connectors and 10 tasks.
	if w4.Tasks != 10 || w4.Connectors < 2 || w4.Connectors > 3 {
		t.Errorf("w4 ends with %d/%d", w4.Connectors, w4.Tasks)
	}
	if revoked != assigned || assigned != w4.Connectors+w4.Tasks {
		t.Errorf("revoked %d, assigned %d, newcomer holds %d", revoked, assigned, w4.Connectors+w4.Tasks)
	}
	// Cooperative stops only what moves, for two rounds.
	s := co.Summary
	if s.TasksStopped != s.TasksMoved || s.ConnectorsStopped != s.ConnectorsMoved || s.TasksMoved != w4.Tasks {
		t.Errorf("stopped %d/%d, moved %d/%d", s.ConnectorsStopped, s.TasksStopped, s.ConnectorsMoved, s.TasksMoved)
	}
	if s.TaskMsNotRunning != int64(w4.Tasks)*2*testRound || s.LongestTaskOutageMs != 2*testRound {
		t.Errorf("task ms %d, longest %d", s.TaskMsNotRunning, s.LongestTaskOutageMs)
	}
	if s.BalancedAfterMs == nil || *s.BalancedAfterMs != 2*testRound {
		t.Errorf("balanced at %v, want %d", s.BalancedAfterMs, 2*testRound)
	}
	checkConservation(t, co, 10, 40)
	// Eager: one round that stops everything for one round time.
	if len(eg.Rounds) != 1 || eg.Summary.TasksStopped != 40 || eg.Summary.ConnectorsStopped != 10 {
		t.Errorf("eager: %d rounds, %d tasks stopped", len(eg.Rounds), eg.Summary.TasksStopped)
	}
	if eg.Summary.TaskMsNotRunning != 40*testRound {
		t.Errorf("eager task ms %d, want %d", eg.Summary.TaskMsNotRunning, 40*testRound)
	}
	checkConservation(t, eg, 10, 40)
}

func TestLeaveHeldForTheDelay(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	before := ownedBy(st)
	const delay = 60000
	back := int64(30000)
	res, err := LeavePlan(st, testOpts(delay), "w2", StopClean, &back)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Branches) != 2 {
		t.Fatalf("%d branches, want returns / does not return", len(res.Branches))
	}
	w2pieces := []string{}
	for p, w := range before {
		if w == "w2" {
			w2pieces = append(w2pieces, p)
		}
	}
	sort.Strings(w2pieces)

	// Branch 1: w2 is back after 30 s as w2.2, the only empty worker; at the
	// deadline (60 s after the departure) it gets exactly the lost pieces.
	ret := res.Branches[0].Cooperative
	if got := roundTimes(ret); !equalInts(got, []int64{0, 30000, delay}) {
		t.Fatalf("returns: rounds at %v", got)
	}
	if ret.Rounds[0].DelayMs != delay || ret.Rounds[1].DelayMs != delay-30000 {
		t.Errorf("delays %d, %d: want the full delay, then the remaining one", ret.Rounds[0].DelayMs, ret.Rounds[1].DelayMs)
	}
	for _, p := range w2pieces {
		if iv := outageOf(ret, p); len(iv) != 1 || iv[0] != (timeline.Interval{FromMs: 0, ToMs: delay + testRound}) {
			t.Errorf("returns: %s not running %v, want [0, %d)", p, iv, delay+testRound)
		}
	}
	if ret.Summary.TasksMoved != 0 || ret.Summary.ConnectorsMoved != 0 {
		t.Errorf("returns: %d/%d moved, want the pieces back on w2's host", ret.Summary.ConnectorsMoved, ret.Summary.TasksMoved)
	}
	if len(ret.Outages) != len(w2pieces) {
		t.Errorf("returns: %d pieces stopped, want only w2's %d", len(ret.Outages), len(w2pieces))
	}

	// Branch 2: nobody comes back; at the deadline the lost pieces are new
	// work for the survivors.
	gone := res.Branches[1].Cooperative
	if got := roundTimes(gone); !equalInts(got, []int64{0, delay}) {
		t.Fatalf("does not return: rounds at %v", got)
	}
	wantMs := int64(0)
	for _, p := range w2pieces {
		if strings.Contains(p, "-") && !isConfiguredConnector(st, p) {
			wantMs += delay + testRound
		}
	}
	if gone.Summary.TaskMsNotRunning != wantMs {
		t.Errorf("does not return: task ms %d, want %d", gone.Summary.TaskMsNotRunning, wantMs)
	}
	checkConservation(t, gone, 6, 12)
	if len(gone.Summary.Final) != 2 {
		t.Errorf("does not return: final members %v", gone.Summary.Final)
	}

	// Eager has no delay: everything stops for one round when w2 leaves and
	// once more when w2.2 joins.
	eg := res.Branches[0].Eager
	if got := roundTimes(eg); !equalInts(got, []int64{0, 30000}) {
		t.Errorf("eager: rounds at %v", got)
	}
	if eg.Summary.TaskMsNotRunning != 12*2*testRound {
		t.Errorf("eager: task ms %d", eg.Summary.TaskMsNotRunning)
	}
}

func isConfiguredConnector(st cluster.State, name string) bool {
	for _, c := range st.Connectors {
		if c.Name == name {
			return true
		}
	}
	return false
}

func TestCrashNoticedAfterSessionTimeout(t *testing.T) {
	st := synth(t, "workers=3,connectors=3,tasks=3")
	opts := testOpts(60000)
	opts.SessionTimeoutMs = 10000
	back := int64(5000) // back before the crash is even noticed
	res, err := LeavePlan(st, opts, "w3", StopCrash, &back)
	if err != nil {
		t.Fatal(err)
	}
	co := res.Branches[0].Cooperative
	// The returning member's join completes with the notice at 10 s; the
	// delay starts there, so the deadline is 70 s.
	if got := roundTimes(co); !equalInts(got, []int64{10000, 70000}) {
		t.Fatalf("rounds at %v, want [10000 70000]", got)
	}
	for p, w := range ownedBy(st) {
		if w != "w3" {
			continue
		}
		if iv := outageOf(co, p); len(iv) != 1 || iv[0] != (timeline.Interval{FromMs: 0, ToMs: 70000 + testRound}) {
			t.Errorf("%s not running %v, want from the crash to the deadline round's end", p, iv)
		}
	}
	gone := res.Branches[1].Eager
	if got := roundTimes(gone); !equalInts(got, []int64{10000}) {
		t.Errorf("eager crash: rounds at %v, want one at the notice", got)
	}
}

func TestLeaderLeavingReassignsAtOnce(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	res, err := LeavePlan(st, testOpts(300000), "w1", StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	co := res.Branches[0].Cooperative
	// assignor.md §0: a new leader has no memory, sees nothing lost and
	// assigns the departed leader's pieces as new work in the same round.
	if len(co.Rounds) != 1 || co.Rounds[0].DelayMs != 0 {
		t.Fatalf("rounds %d, delay %d: want one round without delay", len(co.Rounds), co.Rounds[0].DelayMs)
	}
	if co.Summary.LongestTaskOutageMs != testRound {
		t.Errorf("longest outage %d, want one round", co.Summary.LongestTaskOutageMs)
	}
	checkConservation(t, co, 6, 12)
}

func TestConnectorPlan(t *testing.T) {
	st := synth(t, "workers=3,connectors=4,tasks=3")
	res, err := ConnectorPlan(st, testOpts(300000), ConnectorChange{
		Set:    map[string]int{"conn-00": 6, "conn-01": 1},
		Remove: []string{"conn-02"},
		Add:    map[string]int{"zeta": 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	co := res.Branches[0].Cooperative
	// conn-00 6 + conn-01 1 + conn-03 3 + zeta 2 = 12 tasks, 4 connectors.
	checkConservation(t, co, 4, 12)
	checkConservation(t, res.Branches[0].Eager, 4, 12)
	for _, o := range co.Outages {
		if strings.HasPrefix(o.Piece, "conn-02") {
			continue // removed: stopped for good, not counted as waiting
		}
		if o.Host == nil && !(strings.HasPrefix(o.Piece, "zeta") || strings.HasPrefix(o.Piece, "conn-00-")) {
			t.Errorf("%s did not run at the start but is not new", o.Piece)
		}
	}
	if co.Summary.TasksStopped == 12 {
		t.Errorf("cooperative stopped every task")
	}
	for _, bad := range []ConnectorChange{
		{Set: map[string]int{"nope": 1}},
		{Remove: []string{"nope"}},
		{Add: map[string]int{"conn-00": 1}},
		{Set: map[string]int{"conn-00": -1}},
		{},
	} {
		if _, err := ConnectorPlan(st, testOpts(300000), bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	// Contradictions name the connector (both were planned, exit 0).
	for want, bad := range map[string]ConnectorChange{
		"conn-00: its tasks are set too": {Set: map[string]int{"conn-00": 3}, Remove: []string{"conn-00"}},
		"conn-01: given twice":           {Remove: []string{"conn-01", "conn-01"}},
	} {
		if _, err := ConnectorPlan(st, testOpts(300000), bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", bad, err, want)
		}
	}
	// Removed and added again: the connector deleted and created anew.
	if _, err := ConnectorPlan(st, testOpts(300000), ConnectorChange{Remove: []string{"conn-00"}, Add: map[string]int{"conn-00": 1}}); err != nil {
		t.Errorf("remove and add: %v", err)
	}
}

func TestLeaveResolvesAliasesAndRejectsUnknown(t *testing.T) {
	st := synth(t, "workers=2,connectors=2,tasks=1")
	st.Workers[1].Aliases = []string{"10.0.0.2:8083", "http://10.0.0.2:8083/"}
	if w, err := st.ResolveWorker("10.0.0.2:8083"); err != nil || w != "w2" {
		t.Errorf("alias: %q, %v", w, err)
	}
	if _, err := LeavePlan(st, testOpts(1000), "w9", StopClean, nil); err == nil || !strings.Contains(err.Error(), "w9") {
		t.Errorf("unknown worker: %v", err)
	}
	if _, err := LeavePlan(st, testOpts(1000), "w1", "explode", nil); err == nil {
		t.Errorf("bad stop mode accepted")
	}
}

func TestNewWorkerNames(t *testing.T) {
	if got := NewWorkerNames(synth(t, "workers=6,connectors=1"), 2); strings.Join(got, ",") != "w7,w8" {
		t.Errorf("got %v", got)
	}
	st := cluster.State{Workers: []cluster.WorkerState{{ID: "connect-1-abc"}, {ID: "new-1"}}}
	if got := NewWorkerNames(st, 2); strings.Join(got, ",") != "new-2,new-3" {
		t.Errorf("got %v", got)
	}
}

func TestPlanJSONKeepsNulls(t *testing.T) {
	st := synth(t, "workers=2,connectors=2,tasks=1")
	res, err := JoinPlan(st, testOpts(300000), []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"restart_time_ms":null`, `"returns_after_ms":null`, `"stop":null`, `"all_running_after_ms":`, `"balanced_after_ms":`, `"outages":[`, `"notes":[]`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestMillis(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 90000: "1m30s", 300000: "5m", 2500: "2.5s", 40: "40ms", 3600000: "1h", -2000: "-2s"} {
		if got := Millis(ms); got != want {
			t.Errorf("Millis(%d) = %q, want %q", ms, got, want)
		}
	}
}

func roundTimes(tl *timeline.Timeline) []int64 {
	out := []int64{}
	for _, r := range tl.Rounds {
		out = append(out, r.TimeMs)
	}
	return out
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
