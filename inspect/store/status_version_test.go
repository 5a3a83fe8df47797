package store

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

func taskStatusRecord(offset int64, state, worker string, gen int) inspect.Record {
	return inspect.Record{Topic: "connect-status", Partition: 0, Offset: offset, Key: []byte("status-task-orders-0"),
		Value: fmt.Appendf(nil, `{"state":%q,"trace":null,"worker_id":%q,"generation":%d}`, state, worker, gen)}
}

// A late UNASSIGNED from the task's previous worker (KAFKA-12525) is ignored
// from 3.6.0 on; before, the last record won. Connectors never had the rule.
func TestStatusStaleUnassignedFollowsVersion(t *testing.T) {
	records := []inspect.Record{
		taskStatusRecord(0, "RUNNING", "w1:8083", 4),
		taskStatusRecord(1, "RUNNING", "w2:8083", 5),
		taskStatusRecord(2, "UNASSIGNED", "w1:8083", 5), // same generation: stale too
	}
	for _, tc := range []struct {
		version            string
		wantState, wantWkr string
	}{
		{"", "RUNNING", "w2:8083"}, // unknown: the newest behaviour (3.9's vectors)
		{"3.9.1", "RUNNING", "w2:8083"},
		{"4.4.0", "RUNNING", "w2:8083"},
		{"3.6.0", "RUNNING", "w2:8083"},
		{"3.5.2", "UNASSIGNED", "w1:8083"},
		{"2.8", "UNASSIGNED", "w1:8083"},
	} {
		v, err := kafkaversion.Parse(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		res := DecodeStatus(records, DecodeOptions{KafkaVersion: v})
		if len(res.Tasks) != 1 {
			t.Fatalf("%s: tasks %+v", tc.version, res.Tasks)
		}
		got := res.Tasks[0]
		if got.State != tc.wantState || got.WorkerID == nil || *got.WorkerID != tc.wantWkr {
			t.Errorf("--kafka-version %q: task %s %v, want %s on %s", tc.version, got.State, got.WorkerID, tc.wantState, tc.wantWkr)
		}
	}
	// A newer generation's UNASSIGNED wins in every version.
	newer := append(records[:2:2], taskStatusRecord(2, "UNASSIGNED", "w1:8083", 6))
	for _, version := range []string{"", "3.6.0", "3.5.2"} {
		v, _ := kafkaversion.Parse(version)
		if st := DecodeStatus(newer, DecodeOptions{KafkaVersion: v}).Tasks[0].State; st != "UNASSIGNED" {
			t.Errorf("%q: newer UNASSIGNED lost to %s", version, st)
		}
	}
}
