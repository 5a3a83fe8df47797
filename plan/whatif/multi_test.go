package whatif

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Two crashes at once are noticed in the same session timeout: one round
// sees both gone, and their work is held for one delay.
func TestLeaveTwoCrashesAtOnce(t *testing.T) {
	st := synth(t, "workers=4,connectors=8,tasks=2")
	res, err := LeaveWorkersPlan(st, testOpts(60000), LeaveOptions{Workers: []string{"w2", "w3"}, Stop: StopCrash})
	if err != nil {
		t.Fatal(err)
	}
	if res.Event != "w2, w3 crash at once" {
		t.Errorf("event %q", res.Event)
	}
	tl := res.Branches[0].Cooperative
	if len(res.Branches) != 1 || res.Branches[0].Name != "w2, w3 do not return" {
		t.Fatalf("branches %+v", res.Branches)
	}
	first := tl.Rounds[0]
	if first.TimeMs != 10000 || !strings.Contains(first.Trigger, "w2 left") || !strings.Contains(first.Trigger, "w3 left") {
		t.Errorf("first round at %d for %q, want both departures noticed together at 10000", first.TimeMs, first.Trigger)
	}
	if first.DelayMs != 60000 {
		t.Errorf("first round delay %d, want 60000", first.DelayMs)
	}
	// The same on the assignor directly: both leave, then settle.
	sim, _ := assignor.NewSim(assignor.SimConfig{Protocol: "sessioned", MaxDelayMs: 60000})
	sim.SetConnectors(st.Connectors)
	for _, w := range st.Workers {
		_ = sim.Join(w.ID, w.Owned)
	}
	sim.Sleep(1)
	mem, _ := cluster.LeaderMemory(sim, nil, 60000)
	sim.SetState(mem)
	_ = sim.Leave("w2")
	_ = sim.Leave("w3")
	sim.Settle(0)
	if got, want := FinalPieces(st, tl), simPieces(sim); !maps.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("plan ends with %v, the assignor with %v", got, want)
	}
}

// Paced departures: the second worker stops pace after the first, and
// the leader's deadline stays anchored at the first departure.
func TestLeavePaced(t *testing.T) {
	st := synth(t, "workers=4,connectors=8,tasks=2")
	back := int64(5000)
	res, err := LeaveWorkersPlan(st, testOpts(60000), LeaveOptions{Workers: []string{"w3", "w2"}, PaceMs: 20000, ReturnsAfterMs: &back})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Branches) != 2 || res.Assumptions.PaceMs == nil || *res.Assumptions.PaceMs != 20000 {
		t.Fatalf("branches %d, pace %v", len(res.Branches), res.Assumptions.PaceMs)
	}
	tl := res.Branches[1].Cooperative
	var at []int64
	for _, r := range tl.Rounds {
		at = append(at, r.TimeMs)
	}
	if len(at) < 3 || at[0] != 0 || at[1] != 20000 || at[len(at)-1] != 60000 {
		t.Errorf("rounds at %v, want w3 at 0, w2 at 20000, the deadline (anchored at 0) at 60000", at)
	}
	if tl.Rounds[1].DelayMs != 40000 {
		t.Errorf("second departure told %d, want the remaining 40000", tl.Rounds[1].DelayMs)
	}
}

// A worker named twice is refused, never silently one event.
func TestLeaveRepeatedWorker(t *testing.T) {
	st := synth(t, "workers=3,connectors=3")
	st.Workers[1].Aliases = []string{"w2:8083"}
	for _, ws := range [][]string{{"w2", "w2"}, {"w2", "w2:8083"}} {
		_, err := LeaveWorkersPlan(st, testOpts(60000), LeaveOptions{Workers: ws})
		if err == nil || !strings.Contains(err.Error(), "Worker") {
			t.Errorf("%v: err %v, want a Worker error", ws, err)
		}
	}
	var nf *cluster.NotFoundError
	if _, err := LeaveWorkersPlan(st, testOpts(60000), LeaveOptions{Workers: []string{"w2", "w9"}}); !errors.As(err, &nf) {
		t.Errorf("unknown worker: %v, want not found", err)
	}
}

func TestScalePlan(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=3")
	res, err := ScalePlan(st, testOpts(60000), ScaleOptions{To: 5, Step: 1, PaceMs: 30000})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[0].Cooperative
	joins := 0
	for _, ev := range tl.Events {
		if strings.Contains(ev.Event, "joins") {
			joins++
			if want := int64(joins-1) * 30000; ev.TimeMs != want {
				t.Errorf("join %d at %d, want %d", joins, ev.TimeMs, want)
			}
		}
	}
	if joins != 2 || len(tl.Summary.Final) != 5 {
		t.Errorf("%d joins, %d workers at the end", joins, len(tl.Summary.Final))
	}

	res, err = ScalePlan(st, testOpts(60000), ScaleOptions{To: 1, Step: 1, PaceMs: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Event, "w3, w2 stop cleanly") {
		t.Errorf("scale-in event %q, want the last names first", res.Event)
	}
	fin := res.Branches[0].Cooperative.Summary
	if len(fin.Final) != 1 || fin.Final[0].Worker != "w1" || len(fin.NotRunningAtEnd) != 0 {
		t.Errorf("scale-in end %+v", fin)
	}
	for _, so := range []ScaleOptions{{To: 3}, {To: 0}, {To: 4, Step: -1}} {
		if _, err := ScalePlan(st, testOpts(60000), so); err == nil {
			t.Errorf("%+v accepted", so)
		}
	}
	// A target past the bounds is refused before anything is built for it
	// (--to 9223372036854775807 ran until interrupted).
	for to, want := range map[int]string{
		math.MaxInt:           "plans at most 100000 workers",
		bounds.MaxWorkers + 1: "plans at most 100000 workers",
		3 + MaxJoiners + 1:    "adds 10001 workers: connectscope plans at most 10000 joiners",
	} {
		var be *bounds.Error
		if _, err := ScalePlan(st, testOpts(60000), ScaleOptions{To: to}); !errors.As(err, &be) || !strings.Contains(err.Error(), want) {
			t.Errorf("--to %d: %v, want a bounds error saying %q", to, err, want)
		}
	}
	if _, err := ScalePlan(st, testOpts(60000), ScaleOptions{To: 2, Add: []string{"connect-h:1-<uuid>"}}); err == nil || !strings.Contains(err.Error(), "a scale-in adds no worker") {
		t.Errorf("new workers named for a scale-in: %v", err)
	}
	// A scale by hundreds names the first workers and counts them all.
	res, err = ScalePlan(st, testOpts(60000), ScaleOptions{To: 403})
	if err != nil {
		t.Fatal(err)
	}
	if want := "(w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, … 400 workers in all)"; !strings.Contains(res.Event, want) {
		t.Errorf("event %q, want it to hold %q", res.Event, want)
	}
}

// --add HOST:PORT names the joiner as Connect will (connect-HOST:PORT-uuid):
// the eager preview deals exactly as with the real id, whatever the UUID.
func TestJoinerNamedAsConnect(t *testing.T) {
	st := synth(t, "workers=3,connectors=5,tasks=2")
	// Real-looking members: connect-HOST:PORT-uuid.
	for i := range st.Workers {
		hp := []string{"10.0.1.11:8083", "10.0.1.12:8083", "10.0.1.13:8083"}[i]
		st.Workers[i].ID = "connect-" + hp + "-5d1c0a7e-0000-4000-8000-00000000000" + string(rune('1'+i))
		st.Workers[i].Aliases = []string{hp}
	}
	st.Leader = st.Workers[0].ID
	st.Protocol = "eager"
	names, err := Joiners(st, []string{"10.0.1.10:8083"})
	if err != nil || len(names) != 1 || names[0] != "connect-10.0.1.10:8083-<uuid>" {
		t.Fatalf("joiners %v, %v", names, err)
	}
	res, err := JoinPlan(st, testOpts(60000), names)
	if err != nil {
		t.Fatal(err)
	}
	if st.Label(names[0]) != "10.0.1.10:8083" {
		t.Errorf("label %q", st.Label(names[0]))
	}
	planned := FinalPieces(st, res.Branches[0].Eager)[names[0]]
	real := "connect-10.0.1.10:8083-ffffffff-aaaa-4bbb-8ccc-dddddddddddd"
	sim, _ := assignor.NewSim(assignor.SimConfig{Protocol: "eager"})
	sim.SetConnectors(st.Connectors)
	for _, w := range st.Workers {
		_ = sim.Join(w.ID, w.Owned)
	}
	_ = sim.Join(real, assignor.Pieces{})
	sim.Rebalance(false)
	if want := simPieces(sim)[real]; !slices.Equal(planned, want) {
		t.Errorf("eager preview gives the joiner %v, the real id gets %v", planned, want)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n, "joiner 10.0.1.10:8083 is placed 1 of 4")
	}
	if !found {
		t.Errorf("notes %q do not say where the joiner was placed", res.Notes)
	}
	// A made-up name says it is a guess.
	res, _ = JoinPlan(st, testOpts(60000), []string{"new-1"})
	if !strings.Contains(strings.Join(res.Notes, "\n"), "made-up member id placed 4 of 4") {
		t.Errorf("notes %q", res.Notes)
	}
	// Beyond joinerNotesEach joiners of a kind, one note names the first
	// few and counts the rest: a scale-out by hundreds is not a screen of notes.
	many, err := Joiners(st, []string{"20"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ = JoinPlan(st, testOpts(60000), many)
	var joinerNotes []string
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "eager: ") && strings.Contains(n, "joiner") {
			joinerNotes = append(joinerNotes, n)
		}
	}
	if len(joinerNotes) != 1 || !strings.HasPrefix(joinerNotes[0], "eager: 20 joiners: ") || !strings.Contains(joinerNotes[0], "and 17 more like them") {
		t.Errorf("20 joiners: %q", joinerNotes)
	}
	if _, err := Joiners(st, []string{"10.0.1.10:8083,10.0.1.10:8083"}); err == nil {
		t.Error("a joiner given twice was accepted")
	}
	if got, err := Joiners(synth(t, "workers=2,connectors=1"), []string{"2"}); err != nil || !slices.Equal(got, []string{"w3", "w4"}) {
		t.Errorf("Joiners(2) = %v, %v", got, err)
	}
}

// A restart's real member id, known after the fact, names the returning
// member in a bounce and in a roll (its UUID decides tie-breaks); without
// it the plan makes up ID.2.
func TestIncarnationsNameTheReturn(t *testing.T) {
	st := synth(t, "workers=3,connectors=4,tasks=2")
	back := int64(5000)
	returning := func(res *PlanResult) []string {
		var out []string
		for _, ev := range res.Branches[0].Cooperative.Events {
			if ev.Kind == timeline.MarkReturn && ev.Worker != nil {
				out = append(out, *ev.Worker)
			}
		}
		return out
	}
	res, err := LeavePlan(st, testOpts(60000), "w2", StopClean, &back)
	if err != nil {
		t.Fatal(err)
	}
	if got := returning(res); len(got) != 1 || got[0] != "w2.2" {
		t.Fatalf("without Incarnations the return is %v, want [w2.2]", got)
	}
	st.Incarnations = map[string]string{"w2": "connect-w2-0f3a", "w3": "connect-w3-77b1"}
	res, err = LeavePlan(st, testOpts(60000), "w2", StopClean, &back)
	if err != nil {
		t.Fatal(err)
	}
	if got := returning(res); len(got) != 1 || got[0] != "connect-w2-0f3a" {
		t.Errorf("bounce: the return is %v, want [connect-w2-0f3a]", got)
	}
	roll, err := RollingRestartPlan(st, testOpts(60000), back, StopClean, []string{"w2", "w3", "w1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(returning(roll), ","); got != "connect-w2-0f3a,connect-w3-77b1,w1.2" {
		t.Errorf("roll: returns %s, want connect-w2-0f3a,connect-w3-77b1,w1.2", got)
	}
}
