package history

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func recAt(part int32, off int64, key, state, worker string, gen int, at int64) inspect.Record {
	r := rec(key, state, worker, gen, at)
	r.Partition, r.Offset = part, off
	return r
}

// The status topic has several partitions, read one after another: here
// partition 0 (task a-0, and w1's return) comes before partition 1 (task
// a-1, w1's stop), though a-1's stop is earlier. Read in that order, w1's
// return precedes its stop and no restart shows, and generation 4's a-1
// outage is lost; in time order both are right.
func TestFromRecordsTimeOrderAcrossPartitions(t *testing.T) {
	res := FromRecords("connect-status", []inspect.Record{
		recAt(0, 0, "status-task-a-0", "RUNNING", "w2:8083", 1, 1000),
		recAt(0, 1, "status-task-a-0", "RUNNING", "w1:8083", 5, 60000), // w1 back
		recAt(1, 0, "status-task-a-1", "RUNNING", "w1:8083", 1, 1000),
		recAt(1, 1, "status-task-a-1", "UNASSIGNED", "w1:8083", 2, 10000), // w1 stops cleanly
		recAt(1, 2, "status-task-a-1", "RUNNING", "w2:8083", 3, 40000),
	})
	if len(res.Restarts) != 1 || res.Restarts[0].Worker != "w1:8083" || res.Restarts[0].AwayMs != 50000 {
		t.Errorf("restarts %+v, want w1 away 50 s", res.Restarts)
	}
	if n := len(res.Rebalances); n != 4 || res.Rebalances[2].TaskMsNotRunning != 30000 {
		t.Errorf("rebalances %+v, want generation 3 with a-1 down 30 s", res.Rebalances)
	}
	// Equal times: partition, then offset, decide.
	es, _ := entries([]inspect.Record{
		recAt(1, 0, "status-task-a-1", "RUNNING", "w1:8083", 1, 5),
		recAt(0, 7, "status-task-a-0", "RUNNING", "w1:8083", 1, 5),
		recAt(0, 3, "status-connector-a", "RUNNING", "w1:8083", 1, 5),
	})
	if len(es) != 3 || es[0].piece != "a" || es[1].piece != "a-0" || es[2].piece != "a-1" {
		t.Errorf("tie order %+v", es)
	}
}
