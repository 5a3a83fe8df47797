package watch_test

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/watch"
)

// heldMember is connectMember whose latest assignment announces delayMs.
func heldMember(t *testing.T, id, url string, tasks []protocol.TaskRef, delayMs int32) inspect.GroupMember {
	t.Helper()
	m := connectMember(t, id, url, nil, tasks)
	asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: "m1", LeaderURL: "http://w1:8083/", ConfigOffset: 5, DelayMs: delayMs})
	if err != nil {
		t.Fatal(err)
	}
	m.Assignment = asg
	return m
}

// Work lost to a killed worker is held, not moved to nobody; its later
// reassignment says so; the summary counts the held time; workers are
// named host:port, as status records name them.
func TestWatcherHeldWork(t *testing.T) {
	t0, t1 := protocol.TaskRef{Connector: "src", Task: 0}, protocol.TaskRef{Connector: "src", Task: 1}
	w := watch.New(0, []inspect.Record{
		statusRec("status-task-src-0", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":4}`),
		statusRec("status-task-src-1", `{"state":"RUNNING","trace":null,"worker_id":"w2:8083","generation":4}`),
	})
	w.ObserveGroup(0, describedGroup(inspect.GroupStable,
		connectMember(t, "m1", "http://w1:8083/", nil, []protocol.TaskRef{t0}),
		connectMember(t, "m2", "http://w2:8083/", nil, []protocol.TaskRef{t1})))
	// w2 is killed: after its session timeout the group is stable without
	// it, and the leader holds src-1 for 30 s.
	ev := w.ObserveGroup(10_000, describedGroup(inspect.GroupStable, heldMember(t, "m1", "http://w1:8083/", []protocol.TaskRef{t0}, 30_000)))
	var held *watch.Event
	for i, e := range ev {
		if e.Type == watch.EventMemberLeft && (e.WorkerID == nil || *e.WorkerID != "w2:8083") {
			t.Errorf("member_left names the worker %v, want w2:8083", e.WorkerID)
		}
		if e.Task != nil && *e.Task == "src-1" {
			held = &ev[i]
		}
	}
	if held == nil {
		t.Fatalf("no event for src-1: %s", types(ev))
	}
	if strings.Contains(held.Message, "nobody") || !strings.Contains(held.Message, "held") || held.HeldForMs == nil || *held.HeldForMs != 30_000 {
		t.Errorf("held work: %+v", *held)
	}
	// Reassigned after the delay; w1 then writes RUNNING for src-1.
	ev = w.ObserveGroup(40_000, describedGroup(inspect.GroupStable, connectMember(t, "m1", "http://w1:8083/", nil, []protocol.TaskRef{t0, t1})))
	found := false
	for _, e := range ev {
		if e.Task != nil && *e.Task == "src-1" {
			found = true
			if !strings.Contains(e.Message, "reassigned") || !strings.Contains(e.Message, "w1:8083") || strings.Contains(e.Message, "nobody") {
				t.Errorf("reassignment: %q", e.Message)
			}
		}
	}
	if !found {
		t.Errorf("no reassignment event: %s", types(ev))
	}
	ev = w.ObserveStatus(41_000, statusRec("status-task-src-1", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":6}`))
	if len(ev) != 1 || strings.Contains(ev[0].Message, "RUNNING → RUNNING") || !strings.Contains(ev[0].Message, "w2:8083") || !strings.Contains(ev[0].Message, "w1:8083") {
		t.Errorf("status on the new worker: %+v", ev)
	}
	s := w.Summary(50_000)
	if s.TaskNotRunningMs != 30_000 || len(s.TasksNotRunning) != 1 || s.TasksNotRunning[0].ByStateMs["HELD"] != 30_000 {
		t.Errorf("summary: not running %d ms, %+v; want 30000 ms held for src-1", s.TaskNotRunningMs, s.TasksNotRunning)
	}
}
