package whatif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// phaseDataset is testDataset read at readAt, with the status records of
// a round (generation 7) whose first record is at roundAt, after an older
// one (generation 6).
func phaseDataset(t *testing.T, roundAt, readAt int64) *inspect.Dataset {
	d := testDataset(t)
	d.TakenAtMs = readAt
	status := func(offset int64, key, worker string, gen int, at int64) inspect.Record {
		return inspect.Record{Topic: "connect-status", Offset: offset, Timestamp: at, Key: []byte(key),
			Value: []byte(fmt.Sprintf(`{"state":"RUNNING","trace":null,"worker_id":%q,"generation":%d}`, worker, gen))}
	}
	d.Records = append(d.Records,
		status(0, "status-connector-orders", "10.0.0.2:8083", 6, roundAt-60_000),
		status(1, "status-task-orders-1", "10.0.0.2:8083", 7, roundAt),
		status(2, "status-task-orders-0", "10.0.0.1:8083", 7, roundAt+12),
		status(3, "status-task-orders-2", "10.0.0.1:8083", 7, roundAt+30),
	)
	return d
}

// noticeAt is when the broker expires the crashed member (the plan's first
// round starts then) and when the others have learnt it and rejoined (the
// round's end less its 50 ms).
func noticeAt(t *testing.T, st cluster.State, opts timeline.Options) (expired, learnt int64, _ *PlanResult) {
	t.Helper()
	res, err := LeavePlan(st, opts, "connect-2-bbbb", StopCrash, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Branches[len(res.Branches)-1].Cooperative
	if len(tl.Rounds) == 0 {
		t.Fatal("no round")
	}
	return tl.Rounds[0].TimeMs, tl.Rounds[0].EndMs - opts.RoundTimeMs, res
}

// A crash is expired session.timeout.ms after the member's last heartbeat,
// and the others learn it at their next one: with the phase the status
// topic dates, both fall in it (members heartbeat every interval from the
// last round). Heartbeats at -5600, -2600, 400, ...: the member killed at
// 0 last beat at -2600, is expired at 7400, and the others next beat at
// 9400 (12 s after its last heartbeat: 10 s session, 3 s interval). The
// same kill 1 s later (ZeroAtMs) last beat at -600 and is learnt at 11400.
func TestCrashIsDatedFromTheStatusTopicsPhase(t *testing.T) {
	const readAt = 1_800_000_000_000
	opts := timeline.Options{MaxDelayMs: 300_000, SessionTimeoutMs: 10_000, HeartbeatIntervalMs: 3000, RoundTimeMs: 50}
	st, err := cluster.StateFromDataset(views.Decode(phaseDataset(t, readAt-5600, readAt), store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase == nil || st.Phase.Generation != 7 || st.Phase.AtMs != readAt-5600 {
		t.Fatalf("phase = %+v (%s), want generation 7 at the read time - 5600", st.Phase, st.PhaseNotSeen)
	}
	expired, learnt, res := noticeAt(t, st, opts)
	if expired != 7400 || learnt != 9400 {
		t.Errorf("expired at %d ms, learnt at %d ms; want 7400 and 9400", expired, learnt)
	}
	if m := res.Assumptions.Model; !strings.Contains(m[len(m)-1], "generation 7, 5.6s before time 0") {
		t.Errorf("the assumptions do not say where the phase came from: %q", m[len(m)-1])
	}
	opts.ZeroAtMs = readAt + 1000
	if expired, learnt, _ := noticeAt(t, st, opts); expired != 9400 || learnt != 11400 {
		t.Errorf("killed 1 s after the read: expired at %d ms, learnt at %d ms; want 9400 and 11400", expired, learnt)
	}
	// Without a phase: session.timeout.ms after the kill, then half an
	// interval.
	st.Phase, st.PhaseNotSeen = nil, "test"
	if expired, learnt, _ := noticeAt(t, st, opts); expired != 10000 || learnt != 11500 {
		t.Errorf("no phase: expired at %d ms, learnt at %d ms; want 10000 and 11500", expired, learnt)
	}
}

// What the status topic cannot date is not guessed: the plan falls back to
// half an interval and says why.
func TestPhaseNotSeen(t *testing.T) {
	const readAt = 1_800_000_000_000
	cases := []struct {
		name string
		edit func(d *inspect.Dataset)
		why  string
	}{
		{"no read time", func(d *inspect.Dataset) { d.TakenAtMs = 0 }, "no read time"},
		{"rebalancing", func(d *inspect.Dataset) { d.Group.State = "PreparingRebalance" }, "PreparingRebalance"},
		{"connector deleted since", func(d *inspect.Dataset) {
			d.Records = append(d.Records, inspect.Record{Topic: "connect-status", Offset: 9, Timestamp: readAt - 100, Key: []byte("status-connector-gone")})
		}, "deleted"},
		{"generations out of time order", func(d *inspect.Dataset) {
			d.Records = append(d.Records, inspect.Record{Topic: "connect-status", Offset: 9, Timestamp: readAt - 100, Key: []byte("status-task-legacy-0"),
				Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"10.0.0.2:8083","generation":3}`)})
		}, "do not follow the clock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := phaseDataset(t, readAt-5600, readAt)
			c.edit(d)
			st, err := cluster.StateFromDataset(views.Decode(d, store.DecodeOptions{}))
			if err != nil {
				t.Fatal(err)
			}
			if st.Phase != nil || !strings.Contains(st.PhaseNotSeen, c.why) {
				t.Fatalf("phase %+v, not seen %q; want not seen for %q", st.Phase, st.PhaseNotSeen, c.why)
			}
		})
	}
	// Too old to carry: heartbeats drift a few ms an interval.
	st, err := cluster.StateFromDataset(views.Decode(phaseDataset(t, readAt-3000*(cluster.MaxPhaseAge+1), readAt), store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	m := timeline.NewTimeModel(st, timeline.Options{HeartbeatIntervalMs: 3000})
	if m.StartPhaseMs != nil {
		t.Errorf("a phase %d intervals old was used", cluster.MaxPhaseAge+1)
	}
}

// A clean stop's round, with the others' heartbeats dated, falls at the
// heartbeat after its LeaveGroup (taken 1.2 s after the stop); one inside
// the measured range (0.45 to 2.9 s) may come first, or last, in a real
// group, and the plan says which heartbeats are possible. Heartbeats at
// -1930, 1070, 4070 (the 36-task run's case: the LeaveGroup came at 0.67
// s, before the heartbeat at 1.07 s the plan passed over) and at -1600,
// 1400, 4400; none said without a phase.
func TestCleanStopNearAHeartbeatIsTimingDependent(t *testing.T) {
	const readAt = 1_800_000_000_000
	opts := timeline.Options{MaxDelayMs: 300_000, SessionTimeoutMs: 10_000, HeartbeatIntervalMs: 3000, RoundTimeMs: 50}
	for _, c := range []struct {
		roundAgo int64
		planned  string
		may      string
		first    int64
	}{
		{4930, "4.07s after the stop", "1.07s or 4.07s", 4070},
		{4600, "1.4s after the stop", "1.4s or 4.4s", 1400},
	} {
		st, err := cluster.StateFromDataset(views.Decode(phaseDataset(t, readAt-c.roundAgo, readAt), store.DecodeOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		for _, plan := range []func() (*PlanResult, error){
			func() (*PlanResult, error) { return LeavePlan(st, opts, "connect-2-bbbb", StopClean, nil) },
			func() (*PlanResult, error) { return ScalePlan(st, opts, ScaleOptions{To: 1}) },
		} {
			res, err := plan()
			if err != nil {
				t.Fatal(err)
			}
			note := strings.Join(res.Notes, "\n")
			if !strings.Contains(note, "LeaveGroup at their heartbeat "+c.planned) || !strings.Contains(note, "heartbeat at "+c.may+",") {
				t.Errorf("round %d ms before the read (%s): notes %q, want the heartbeat %s planned and %s possible", c.roundAgo, res.Event, note, c.planned, c.may)
			}
			// The round opens at the LeaveGroup; the others rejoin at their heartbeat.
			if tl := res.Branches[0].Cooperative; len(tl.Rounds) == 0 || tl.Rounds[0].EndMs-opts.RoundTimeMs != c.first {
				t.Errorf("round %d ms before the read (%s): first round %+v, want the others to rejoin at %d", c.roundAgo, res.Event, tl.Rounds, c.first)
			}
		}
	}
	st, err := cluster.StateFromDataset(views.Decode(phaseDataset(t, readAt-4930, readAt), store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	st.Phase, st.PhaseNotSeen = nil, "test"
	res, err := LeavePlan(st, opts, "connect-2-bbbb", StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if note := strings.Join(res.Notes, "\n"); strings.Contains(note, "timing-dependent") {
		t.Errorf("no phase, yet: %q", note)
	}
}
