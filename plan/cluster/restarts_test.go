package cluster

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/views"
)

// History: a worker that stopped all its work and wrote again three
// generations later was away that long at most.
func TestHistoryRestarts(t *testing.T) {
	rec := func(key, state, worker string, gen int, at int64) inspect.Record {
		return inspect.Record{Topic: "connect-status", Timestamp: at, Key: []byte(key),
			Value: []byte(fmt.Sprintf(`{"state":%q,"trace":null,"worker_id":%q,"generation":%d}`, state, worker, gen))}
	}
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{
		rec("status-task-a-0", "RUNNING", "h1:8083", 1, 1000),
		rec("status-task-a-0", "UNASSIGNED", "h1:8083", 2, 2000),
		rec("status-task-a-0", "RUNNING", "h1:8083", 5, 9500),
	}}
	ds.Topics.Status = "connect-status"
	if got := HistoryRestarts(views.Of(ds)); got["h1:8083"] != 7500 || len(got) != 1 {
		t.Errorf("history restarts %v, want h1:8083 7500", got)
	}
	if got := HistoryRestarts(nil); len(got) != 0 {
		t.Errorf("no dataset: %v", got)
	}
}
