package watch_test

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/watch"
)

// A task paused on purpose is not an outage: its PAUSED time stays out of
// "task time not RUNNING" and is said apart. A connector lost with a
// worker and held for the delay is listed with its held time.
func TestWatchSummaryPausedAndHeldConnectors(t *testing.T) {
	t0 := protocol.TaskRef{Connector: "sink", Task: 0}
	w := watch.New(0, []inspect.Record{
		statusRec("status-task-sink-0", `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":4}`),
		statusRec("status-connector-src", `{"state":"RUNNING","trace":null,"worker_id":"w2:8083","generation":4}`),
	})
	w.ObserveGroup(0, describedGroup(inspect.GroupStable,
		connectMember(t, "m1", "http://w1:8083/", []string{"sink"}, []protocol.TaskRef{t0}),
		connectMember(t, "m2", "http://w2:8083/", []string{"src"}, nil)))
	// The operator pauses sink at 1 s; w2 is killed and its connector src is
	// held for 30 s from 10 s, reassigned at 40 s.
	w.ObserveStatus(1_000, statusRec("status-task-sink-0", `{"state":"PAUSED","trace":null,"worker_id":"w1:8083","generation":4}`))
	m1 := connectMember(t, "m1", "http://w1:8083/", []string{"sink"}, []protocol.TaskRef{t0})
	m1.Assignment = heldMember(t, "m1", "http://w1:8083/", nil, 30_000).Assignment // the delay, nothing new
	w.ObserveGroup(10_000, describedGroup(inspect.GroupStable, m1))
	w.ObserveGroup(40_000, describedGroup(inspect.GroupStable, connectMember(t, "m1", "http://w1:8083/", []string{"sink", "src"}, []protocol.TaskRef{t0})))
	s := w.Summary(50_000)
	if s.TaskNotRunningMs != 0 || len(s.TasksNotRunning) != 0 {
		t.Errorf("paused task counted as not running: %d ms, %+v", s.TaskNotRunningMs, s.TasksNotRunning)
	}
	if s.TaskPausedMs != 49_000 {
		t.Errorf("paused %d ms, want 49000", s.TaskPausedMs)
	}
	if len(s.ConnectorsHeld) != 1 || s.ConnectorsHeld[0].Connector != "src" || s.ConnectorsHeld[0].HeldMs != 30_000 {
		t.Errorf("connectors held %+v, want src for 30s", s.ConnectorsHeld)
	}
	text := s.Text()
	for _, want := range []string{"task time not RUNNING (held by the scheduled delay included, PAUSED left out): 0s", "task time PAUSED (on purpose): 49s", "connectors held (owned by no worker):\n  src: 30s"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary text lacks %q:\n%s", want, text)
		}
	}
}
