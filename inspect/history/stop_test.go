package history

import (
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// A real worker shutting down writes UNASSIGNED for its source task but not
// for its sink task (s-0): the stop is still a clean stop, recognised from
// its sink task next running on w2 (after the delay) with w1 silent.
func TestLastEventCleanStopWithoutEveryUnassigned(t *testing.T) {
	res := FromRecords("connect-status", []inspect.Record{
		rec("status-task-src-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-s-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-s-1", "RUNNING", "w2:8083", 1, 1000),
		rec("status-task-src-0", "UNASSIGNED", "w1:8083", 1, 10000), // w1 stops; s-0's stop is not written
		rec("status-task-src-0", "RUNNING", "w2:8083", 3, 40000),
		rec("status-task-s-0", "RUNNING", "w2:8083", 3, 40000),
	})
	ev := res.LastEvent
	if ev == nil || ev.Kind != EventStop || ev.Worker != "w1:8083" || ev.StartMs != 10000 || ev.ReturnedAfterMs != nil || ev.ElsewhereAfterMs == nil || *ev.ElsewhereAfterMs != 30000 {
		t.Fatalf("last event %+v, want w1's clean stop at 10 s", ev)
	}
	if ev.Real.TasksStopped != 2 || ev.Real.TaskMsNotRunning != 60000 || *ev.Real.AllRunningAfterMs != 30000 || !slices.Equal(ev.Before["w1:8083"], []string{"s-0", "src-0"}) {
		t.Errorf("real %+v, before %v", ev.Real, ev.Before)
	}
	// A cooperative revocation (a joiner takes src-0; w1 keeps s-0) is no
	// stop: what w1 keeps is not written elsewhere.
	res = FromRecords("connect-status", []inspect.Record{
		rec("status-task-src-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-s-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-src-0", "UNASSIGNED", "w1:8083", 2, 10000),
		rec("status-task-src-0", "RUNNING", "w3:8083", 3, 13000),
	})
	if ev := res.LastEvent; ev == nil || ev.Kind != EventJoin || ev.Worker != "w3:8083" {
		t.Errorf("last event %+v, want w3's join", ev)
	}
}

// A crashed worker writes nothing: its pieces are next written RUNNING by
// others, with no UNASSIGNED from it, in a round it takes no part in.
func TestLastEventCrash(t *testing.T) {
	res := FromRecords("connect-status", []inspect.Record{
		rec("status-connector-a", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-a-1", "RUNNING", "w2:8083", 1, 1000),
		rec("status-connector-a", "RUNNING", "w2:8083", 3, 50000),
		rec("status-task-a-0", "RUNNING", "w2:8083", 3, 50000),
	})
	ev := res.LastEvent
	if ev == nil || ev.Kind != EventCrash || ev.Worker != "w1:8083" || ev.StartMs != 1000 {
		t.Fatalf("last event %+v, want w1's crash, dated from its last record", ev)
	}
	if ev.Real.ConnectorsStopped != 1 || ev.Real.TasksStopped != 1 || ev.Real.TaskMsNotRunning != 49000 || !slices.Equal(ev.Before["w1:8083"], []string{"a", "a-0"}) || len(ev.Notes) == 0 {
		t.Errorf("real %+v, before %v, notes %v", ev.Real, ev.Before, ev.Notes)
	}
	if tabs := res.Tables(); tabs[len(tabs)-1].Title[:len("Last event: w1:8083 crashed")] != "Last event: w1:8083 crashed" {
		t.Errorf("title %q", tabs[len(tabs)-1].Title)
	}
}

// A connector paused, stopped or deleted after the event stops its pieces
// on purpose: with the configuration known they are no cost of the event
// (here a stop of w1 whose src runs again on w2, and a connector "gone"
// whose task stops for good afterwards), and a note names them. Without
// it they count, never running again.
func TestLastEventLeavesOutWhatIsNotConfigured(t *testing.T) {
	records := []inspect.Record{
		rec("status-task-src-0", "RUNNING", "w1:8083", 1, 1000),
		rec("status-task-gone-0", "RUNNING", "w2:8083", 1, 1000),
		rec("status-task-src-0", "UNASSIGNED", "w1:8083", 1, 10000), // w1 stops
		rec("status-task-src-0", "RUNNING", "w2:8083", 3, 40000),
		rec("status-task-gone-0", "UNASSIGNED", "w2:8083", 4, 50000), // its connector is stopped
		rec("status-task-new-0", "RUNNING", "w2:8083", 5, 60000),     // created after the event
	}
	all := FromRecords("connect-status", records).LastEvent
	if all == nil || all.Kind != EventStop || all.Real.TasksStopped != 2 || all.Real.AllRunningAfterMs != nil {
		t.Fatalf("without the configuration: %+v", all)
	}
	res := FromRecordsConfigured("connect-status", records, Configured{"src": true, "src-0": true, "new": true, "new-0": true})
	ev := res.LastEvent
	for _, rb := range res.Rebalances {
		if rb.Generation == 4 && !strings.Contains(rb.Trigger, "not configured to run now") {
			t.Errorf("generation 4 stopped gone-0 alone: trigger %q", rb.Trigger)
		}
	}
	if ev == nil || ev.Kind != EventStop || ev.Real.TasksStopped != 1 || ev.Real.TaskMsNotRunning != 30000 || ev.Real.AllRunningAfterMs == nil || *ev.Real.AllRunningAfterMs != 30000 {
		t.Fatalf("with it: %+v", ev)
	}
	if !slices.ContainsFunc(ev.Notes, func(n string) bool {
		return strings.Contains(n, "not configured to run now") && strings.Contains(n, "gone-0")
	}) {
		t.Errorf("no note names gone-0: %v", ev.Notes)
	}
	if !ev.WrittenBefore("src-0") || !ev.WrittenBefore("gone-0") || ev.WrittenBefore("new-0") {
		t.Errorf("written before the event: src-0 %v, gone-0 %v, new-0 %v", ev.WrittenBefore("src-0"), ev.WrittenBefore("gone-0"), ev.WrittenBefore("new-0"))
	}
}

// ConfiguredFrom takes the STARTED connectors and their committed tasks.
func TestConfiguredFrom(t *testing.T) {
	cfg := &store.ConfigsResult{Records: inspect.RecordCounts{Read: 5}, Connectors: []store.ConnectorConfig{
		{Name: "a", TargetState: "STARTED", Tasks: []store.TaskConfig{{ID: "a-0"}, {ID: "a-1"}}},
		{Name: "p", TargetState: "PAUSED", Tasks: []store.TaskConfig{{ID: "p-0"}}},
		{Name: "s", TargetState: "STOPPED"},
	}}
	got := ConfiguredFrom(cfg)
	if len(got) != 3 || !got["a"] || !got["a-0"] || !got["a-1"] {
		t.Errorf("configured %v", got)
	}
	if ConfiguredFrom(nil) != nil || ConfiguredFrom(&store.ConfigsResult{}) != nil {
		t.Error("an unknown configuration (no config record read) is not nil")
	}
}
