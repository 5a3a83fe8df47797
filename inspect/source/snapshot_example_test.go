package source

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/internal/golden"
)

// go test ./inspect/source -run TestExampleSnapshot -update rewrites the
// example.
func updateRequested() bool { return golden.Update() }

const exampleSnapshotPath = "../../examples/cluster.snapshot.json"

// TestExampleSnapshot checks that the committed example equals what the
// generator makes, that it loads, and that the Connect group's ownership
// agrees with the status topic.
func TestExampleSnapshot(t *testing.T) {
	d, err := buildExampleCluster()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, d); err != nil {
		t.Fatal(err)
	}
	if updateRequested() {
		if err := os.WriteFile(exampleSnapshotPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(exampleSnapshotPath)
	if err != nil {
		t.Fatalf("%v (generate it with: go test ./inspect -run TestExampleSnapshot -update)", err)
	}
	if !bytes.Equal(committed, buf.Bytes()) {
		t.Fatalf("%s is not what the generator makes; run: go test ./inspect -run TestExampleSnapshot -update", exampleSnapshotPath)
	}
	loaded, err := LoadFile(exampleSnapshotPath, inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Records) != len(d.Records) || loaded.Group == nil || len(loaded.SinkGroups) != 3 || loaded.Topics != inspect.DefaultTopicNames() {
		t.Fatalf("loaded %d records, group %v", len(loaded.Records), loaded.Group)
	}
	checkExampleOwnership(t, loaded)
}

// checkExampleOwnership compares the members view with the latest status of
// every connector and task: a piece a worker runs (RUNNING, PAUSED, FAILED,
// STOPPED) is owned by the member with that worker id, and an UNASSIGNED
// one by nobody.
func checkExampleOwnership(t *testing.T, d *inspect.Dataset) {
	res := group.Members(d.Group)
	if res.Note != nil || res.Leader == nil || len(res.Members) != 3 {
		t.Fatalf("members view: %+v", res)
	}
	owner := map[string]string{} // piece -> worker id (host:port)
	for _, m := range res.Members {
		if m.Problem != nil || m.Owned == nil || len(m.Warnings) != 0 {
			t.Fatalf("member %s: %+v", m.MemberID, m)
		}
		worker := strings.TrimSuffix(strings.TrimPrefix(*m.URL, "http://"), "/")
		for _, p := range append(slices.Clone(m.Owned.Connectors), m.Owned.Tasks...) {
			if prev, dup := owner[p]; dup {
				t.Errorf("%s owned by %s and %s", p, prev, worker)
			}
			owner[p] = worker
		}
	}
	type status struct {
		State    string `json:"state"`
		WorkerID string `json:"worker_id"`
	}
	latest := map[string]*status{}
	for _, r := range d.Records {
		if r.Topic != d.Topics.Status {
			continue
		}
		key := store.ParseStatusRecordKey(r.Key)
		piece := key.Connector
		switch {
		case key.Is(store.StatusKeyTask):
			piece = key.TaskRef().String()
		case !key.Is(store.StatusKeyConnector):
			continue
		}
		var s status
		if err := json.Unmarshal(r.Value, &s); err != nil {
			t.Fatalf("status %s: %v", r.Key, err)
		}
		latest[piece] = &s
	}
	for piece, s := range latest {
		switch s.State {
		case "UNASSIGNED":
			if w, ok := owner[piece]; ok {
				t.Errorf("%s is UNASSIGNED but owned by %s", piece, w)
			}
		default:
			if owner[piece] != s.WorkerID {
				t.Errorf("%s is %s on %s but owned by %q", piece, s.State, s.WorkerID, owner[piece])
			}
		}
	}
	for piece := range owner {
		if latest[piece] == nil {
			t.Errorf("%s is owned but has no status", piece)
		}
	}
}

// TestKafkaPartition checks the murmur2 partitioner against the partitions
// Kafka's producer chose in the replay vectors (connect-status, 5 partitions).
func TestKafkaPartition(t *testing.T) {
	d, err := LoadFile(replayVectorDir+"/hw-st-cross-partition-order.jsonl", inspect.DefaultTopicNames())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range d.Records {
		if r.Topic == "connect-status" {
			checked++
			if got := murmur2Partition(r.Key, 5); got != r.Partition {
				t.Errorf("key %q: partition %d, Kafka chose %d", r.Key, got, r.Partition)
			}
		}
	}
	if checked < 3 {
		t.Fatalf("only %d status records checked", checked)
	}
}
