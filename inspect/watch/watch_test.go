package watch_test

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/watch"
)

// connectMember builds a sessioned member holding conns and tasks (its
// allocation and assignment say the same).
func connectMember(t *testing.T, id, url string, conns []string, tasks []protocol.TaskRef) inspect.GroupMember {
	t.Helper()
	a := &protocol.Assignment{Version: 2, Leader: "m1", LeaderURL: "http://w1/", ConfigOffset: 5,
		Assigned: protocol.EntriesFor(conns, tasks)}
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 5, Allocation: a})
	if err != nil {
		t.Fatal(err)
	}
	asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: "m1", LeaderURL: "http://w1/", ConfigOffset: 5})
	if err != nil {
		t.Fatal(err)
	}
	return inspect.GroupMember{MemberID: id, ClientID: "connect-" + id, Metadata: meta, Assignment: asg}
}

func describedGroup(state string, members ...inspect.GroupMember) *inspect.GroupDescription {
	proto := ""
	if state == inspect.GroupStable {
		proto = "sessioned"
	}
	return &inspect.GroupDescription{Group: "connect-cluster", State: state, ProtocolType: "connect", Protocol: proto, Members: members}
}

func statusRec(key, value string) inspect.Record {
	r := inspect.Record{Topic: "connect-status", Key: []byte(key)}
	if value != "" {
		r.Value = []byte(value)
	}
	return r
}

func types(events []watch.Event) string {
	var out []string
	for _, e := range events {
		out = append(out, e.Type)
	}
	return strings.Join(out, ",")
}

func TestWatcherRebalance(t *testing.T) {
	src0, src1 := protocol.TaskRef{Connector: "src", Task: 0}, protocol.TaskRef{Connector: "src", Task: 1}
	w := watch.New(1000, []inspect.Record{
		statusRec("status-task-src-0", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":4}`),
		statusRec("status-task-src-1", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":4}`),
	})
	before := describedGroup(inspect.GroupStable, connectMember(t, "m1", "http://w1/", []string{"src"}, []protocol.TaskRef{src0, src1}))
	ev := w.ObserveGroup(1000, before)
	if types(ev) != "group_state" {
		t.Fatalf("first look: %s", types(ev))
	}
	if ev := w.ObserveGroup(2000, before); len(ev) != 0 {
		t.Fatalf("nothing changed, got %s", types(ev))
	}
	joining := describedGroup(inspect.GroupPreparingRebalance, before.Members[0], inspect.GroupMember{MemberID: "m2", ClientID: "connect-m2"})
	ev = w.ObserveGroup(3000, joining)
	if types(ev) != "member_joined,rebalance_started" {
		t.Fatalf("joining: %s", types(ev))
	}
	after := describedGroup(inspect.GroupStable,
		connectMember(t, "m1", "http://w1/", []string{"src"}, []protocol.TaskRef{src0}),
		connectMember(t, "m2", "http://w2/", nil, []protocol.TaskRef{src1}))
	ev = w.ObserveGroup(4500, after)
	if types(ev) != "rebalance_completed,moved" {
		t.Fatalf("completed: %s", types(ev))
	}
	if ev[0].DurationMs == nil || *ev[0].DurationMs != 1500 || *ev[0].Generation != 4 {
		t.Errorf("completion %+v", ev[0])
	}
	if m := ev[1]; *m.Task != "src-1" || *m.From != "w1" || *m.To != "w2" || m.Connector != nil {
		t.Errorf("moved %+v", m)
	}
	// The new generation's status records name the rebalance's generation.
	ev = w.ObserveStatus(5000, statusRec("status-task-src-1", `{"state":"FAILED","trace":"boom","worker_id":"w2:8083","generation":5}`))
	if types(ev) != "task_state" || *ev[0].State != "FAILED" || *ev[0].PreviousState != "RUNNING" || *ev[0].WorkerID != "w2:8083" {
		t.Fatalf("status: %+v", ev)
	}
	if !strings.Contains(ev[0].Message, "src-1: RUNNING → FAILED on w2:8083 (generation 5)") {
		t.Errorf("message %q", ev[0].Message)
	}
	// UNASSIGNED after a RUNNING of a later generation is ignored, as Connect's reader does.
	w.ObserveStatus(5500, statusRec("status-task-src-0", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":5}`))
	if ev := w.ObserveStatus(5600, statusRec("status-task-src-0", `{"state":"UNASSIGNED","trace":null,"worker_id":"w1:8083","generation":4}`)); len(ev) != 0 {
		t.Errorf("stale UNASSIGNED reported: %+v", ev)
	}
	w.ObserveStatus(8000, statusRec("status-task-src-1", `{"state":"RUNNING","trace":null,"worker_id":"w2:8083","generation":5}`))
	// A member leaves without a rebalance being seen: it is still reported.
	ev = w.ObserveGroup(9000, describedGroup(inspect.GroupStable, after.Members[1]))
	if types(ev) != "member_left,rebalance_completed,moved,moved" {
		t.Errorf("leave: %s", types(ev))
	}
	ev = w.ObserveStatus(9500, statusRec("status-connector-src", ""))
	s := w.Summary(10000)
	if s.RebalanceCount != 2 || s.RebalanceTotalMs != 1500 || *s.Rebalances[0].Generation != 5 || s.Rebalances[1].StartedAtMs != nil {
		t.Errorf("rebalances %+v", s.Rebalances)
	}
	// src-1 was FAILED from 5000 to 8000; src-0 and src-1 lost their statuses at 9500.
	if s.TaskNotRunningMs != 3000 || len(s.TasksNotRunning) != 1 || s.TasksNotRunning[0].ByStateMs["FAILED"] != 3000 {
		t.Errorf("downtime %+v", s.TasksNotRunning)
	}
	if s.Events == 0 || s.GroupStateAtEnd != "Stable" || s.MembersAtEnd != 1 || s.DurationMs != 9000 {
		t.Errorf("summary %+v", s)
	}
}

func TestWatcherStillDownAtEnd(t *testing.T) {
	w := watch.New(0, []inspect.Record{
		statusRec("status-task-a-0", `{"state":"FAILED","trace":"x","worker_id":"w1:8083","generation":1}`),
		statusRec("status-task-a-10", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":1}`),
		statusRec("status-task-a-2", `{"state":"UNASSIGNED","trace":null,"worker_id":"w1:8083","generation":1}`),
	})
	w.ObserveGroup(0, describedGroup(inspect.GroupPreparingRebalance))
	s := w.Summary(2000)
	if s.TaskNotRunningMs != 4000 || len(s.TasksNotRunning) != 2 || s.TasksNotRunning[0].Task != "a-0" || s.TasksNotRunning[1].Task != "a-2" {
		t.Errorf("%+v", s.TasksNotRunning)
	}
	if s.RebalanceCount != 1 || s.Rebalances[0].CompletedAtMs != nil {
		t.Errorf("a rebalance still running at the end: %+v", s.Rebalances)
	}
}
