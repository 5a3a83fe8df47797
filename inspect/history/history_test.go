package history

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func rec(key, state, worker string, gen int, at int64) inspect.Record {
	return inspect.Record{Topic: "connect-status", Timestamp: at, Key: []byte(key),
		Value: []byte(fmt.Sprintf(`{"state":%q,"trace":null,"worker_id":%q,"generation":%d}`, state, worker, gen))}
}

// A join (a revocation, then the piece on the new worker), a clean stop held
// for the delay, the stopped worker back later: three rebalances with their
// stops, starts, outages and the restart.
func TestFromRecords(t *testing.T) {
	recs := []inspect.Record{
		rec("status-connector-a", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-1", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-1", "UNASSIGNED", "w1:8083", 2, 5000), // revoked: w2 joined
		rec("status-task-a-1", "RUNNING", "w2:8083", 3, 8000),
		rec("status-connector-a", "UNASSIGNED", "w1:8083", 3, 10000), // w1 stops cleanly
		rec("status-task-a-0", "UNASSIGNED", "w1:8083", 3, 10000),
		rec("status-connector-a", "RUNNING", "w2:8083", 4, 40000), // after the delay
		rec("status-task-a-0", "RUNNING", "w2:8083", 4, 40000),
		rec("status-task-a-0", "UNASSIGNED", "w2:8083", 5, 51000), // w1 back: a-0 revoked from w2 (a live worker writes that)
		rec("status-task-a-0", "RUNNING", "w1:8083", 6, 52000),    // and given to w1
		{Topic: "connect-status", Key: []byte("status-task-b-x"), Value: []byte(`{}`), Timestamp: 1},
		{Topic: "connect-status", Key: []byte("status-task-a-9"), Value: []byte(`not json`), Timestamp: 1},
	}
	res := FromRecords("connect-status", recs)
	var gens []int32
	for _, r := range res.Rebalances {
		gens = append(gens, r.Generation)
	}
	if !slices.Equal(gens, []int32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("generations %v", gens)
	}
	g3 := res.Rebalances[2]
	if g3.TaskMsNotRunning != 3000 || !slices.Equal(g3.Started, []string{"a-1"}) || !strings.Contains(g3.Trigger, "w2:8083 joined") {
		t.Errorf("generation 3: %+v", g3)
	}
	g4 := res.Rebalances[3]
	if g4.TaskMsNotRunning != 30000 || g4.LongestTaskOutageMs != 30000 {
		t.Errorf("generation 4 (after the delay): %+v", g4)
	}
	g6 := res.Rebalances[5]
	if g6.TaskMsNotRunning != 1000 {
		t.Errorf("generation 6: a-0 moved from w2 to w1: %+v", g6)
	}
	if len(res.Restarts) != 1 || res.Restarts[0].Worker != "w1:8083" || res.Restarts[0].AwayMs != 42000 {
		t.Errorf("restarts %+v", res.Restarts)
	}
	ev := res.LastEvent
	if ev == nil || ev.Kind != EventStop || ev.Worker != "w1:8083" || ev.StartMs != 10000 || ev.ReturnedAfterMs == nil || *ev.ReturnedAfterMs != 42000 {
		t.Fatalf("last event %+v", ev)
	}
	// a stopped at 10 s and ran at 40 s; a-0 too, then moved to w1 (51 s to 52 s).
	if ev.Real.ConnectorsStopped != 1 || ev.Real.TasksStopped != 1 || ev.Real.TaskMsNotRunning != 31000 || *ev.Real.AllRunningAfterMs != 42000 {
		t.Errorf("real cost %+v", ev.Real)
	}
	if !slices.Equal(ev.Before["w1:8083"], []string{"a", "a-0"}) || !slices.Equal(ev.Before["w2:8083"], []string{"a-1"}) || !slices.Equal(ev.Generations, []int32{3, 4, 5, 6}) {
		t.Errorf("before %v, generations %v", ev.Before, ev.Generations)
	}
	if tabs := res.Tables(); len(tabs) != 3 || len(tabs[0].Rows) != 6 || len(tabs[2].Rows) != 4 {
		t.Errorf("tables %+v", tabs)
	}
}

func FuzzFromRecords(f *testing.F) {
	f.Add("status-task-a-0", `{"state":"RUNNING","worker_id":"w","generation":1}`, int64(5))
	f.Add("status-task--1", `{"state":"UNASSIGNED","worker_id":"w","generation":-9}`, int64(-1))
	f.Add("status-connector-", `{"worker_id":"\u001b[2J"}`, int64(1<<62))
	f.Fuzz(func(t *testing.T, key, value string, at int64) {
		recs := []inspect.Record{{Key: []byte(key), Value: []byte(value), Timestamp: at}, {Key: []byte(key), Value: []byte(value), Timestamp: at + 1}}
		res := FromRecords("t", recs)
		res.Tables()
		for _, r := range res.Rebalances {
			if r.LastMs < r.FirstMs || r.TaskMsNotRunning < 0 {
				t.Fatalf("%+v", r)
			}
		}
	})
}

// A worker writing for the first time is the last event: a join, with what
// ran where before it and what it cost (a-1 revoked from w1, 3 s down).
func TestLastEventJoin(t *testing.T) {
	res := FromRecords("connect-status", []inspect.Record{
		rec("status-connector-a", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-1", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-1", "UNASSIGNED", "w1:8083", 2, 5000),
		rec("status-task-a-1", "RUNNING", "w2:8083", 3, 8000),
	})
	ev := res.LastEvent
	// The join starts with the round before the joiner's first record:
	// the one that revoked a-1 for it.
	if ev == nil || ev.Kind != EventJoin || ev.Worker != "w2:8083" || ev.StartMs != 5000 {
		t.Fatalf("last event %+v", ev)
	}
	if ev.Real.TasksStopped != 1 || ev.Real.TaskMsNotRunning != 3000 || *ev.Real.AllRunningAfterMs != 3000 || !slices.Equal(ev.Before["w1:8083"], []string{"a", "a-0", "a-1"}) {
		t.Errorf("real %+v, before %v", ev.Real, ev.Before)
	}
	if d := Delta(Cost{TasksStopped: 1, TaskMsNotRunning: 4000}, Cost{TasksStopped: 1, TaskMsNotRunning: 3000}); d.TaskMsNotRunning != 1000 || *d.TaskSecondsError != 1.0/3 || d.AllRunningAfterMs != nil {
		t.Errorf("delta %+v", d)
	}
}
