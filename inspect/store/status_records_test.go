package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// TestStatusRecordVectors decodes every status-topic record vector.
func TestStatusRecordVectors(t *testing.T) {
	seen := 0
	for _, v := range recLoadRecordVectors(t) {
		if v.TopicKind != "status" {
			continue
		}
		seen++
		t.Run(v.Name, func(t *testing.T) {
			r := v.record(t, 3)
			res := DecodeStatus([]inspect.Record{r}, DecodeOptions{})
			recCheckCounts(t, v.Name, res.Records, res.Problems)
			if len(res.Problems) != 0 {
				t.Fatalf("problems %+v", res.Problems)
			}
			if v.ValueUTF8 == nil {
				recCheckStatusTombstone(t, v, r)
				return
			}
			var want struct {
				State      string  `json:"state"`
				Trace      *string `json:"trace"`
				WorkerID   *string `json:"worker_id"`
				Generation int32   `json:"generation"`
				Topic      struct {
					Name              string `json:"name"`
					Connector         string `json:"connector"`
					Task              int32  `json:"task"`
					DiscoverTimestamp int64  `json:"discoverTimestamp"`
				} `json:"topic"`
			}
			if err := json.Unmarshal([]byte(*v.ValueUTF8), &want); err != nil {
				t.Fatal(err)
			}
			switch v.RecordKind {
			case "connector_status":
				exp := ConnectorStatus{Name: strings.TrimPrefix(v.KeyUTF8, "status-connector-"), Status: Status{State: want.State,
					WorkerID: want.WorkerID, Generation: want.Generation, Trace: want.Trace}}
				if len(res.Connectors) != 1 || len(res.Tasks) != 0 || !recSameJSON(t, res.Connectors[0], exp) {
					t.Fatalf("got %+v, want %+v", res.Connectors, exp)
				}
			case "task_status":
				exp := TaskStatus{ID: "orders-sink-1", Connector: "orders-sink", Task: 1, Status: Status{State: want.State,
					WorkerID: want.WorkerID, Generation: want.Generation, Trace: want.Trace}}
				if len(res.Tasks) != 1 || len(res.Connectors) != 0 || !recSameJSON(t, res.Tasks[0], exp) {
					t.Fatalf("got %+v, want %+v", res.Tasks, exp)
				}
			case "topic_status":
				exp := TopicStatus{Connector: want.Topic.Connector, Topic: want.Topic.Name, Task: want.Topic.Task,
					DiscoverTimestampMs: want.Topic.DiscoverTimestamp}
				if len(res.Topics) != 1 || res.Topics[0] != exp || exp.Connector != "orders-sink" || exp.Topic != "orders" {
					t.Fatalf("got %+v, want %+v", res.Topics, exp)
				}
			default:
				t.Fatalf("unknown record_kind %q", v.RecordKind)
			}
		})
	}
	if seen != 15 {
		t.Fatalf("%d status record vectors, want 15", seen)
	}
}

func recSameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return string(ab) == string(bb)
}

// recCheckStatusTombstone: a tombstone removes what its key names.
func recCheckStatusTombstone(t *testing.T, v recVectorRecord, tomb inspect.Record) {
	t.Helper()
	running := []byte(`{"state":"RUNNING","trace":null,"worker_id":"w:8083","generation":1}`)
	recs := []inspect.Record{
		{Key: []byte("status-connector-orders-sink"), Value: running},
		{Key: []byte("status-task-orders-sink-1"), Value: running},
		{Key: []byte("status-topic-orders:connector-orders-sink"),
			Value: []byte(`{"topic":{"name":"orders","connector":"orders-sink","task":0,"discoverTimestamp":1}}`)},
		tomb,
	}
	res := DecodeStatus(recs, DecodeOptions{})
	conns, tasks, topics := len(res.Connectors), len(res.Tasks), len(res.Topics)
	var want [3]int
	switch v.RecordKind {
	case "connector_status":
		want = [3]int{0, 0, 1} // drops the connector and its tasks, not its topics
	case "task_status":
		want = [3]int{1, 0, 1}
	case "topic_status":
		want = [3]int{1, 1, 0}
	}
	if [3]int{conns, tasks, topics} != want {
		t.Fatalf("after tombstone: %d connectors, %d tasks, %d topics; want %v", conns, tasks, topics, want)
	}
}
