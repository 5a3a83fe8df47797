package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/internal/golden"
)

const (
	examplePath      = "../../examples/cluster.snapshot.json"
	exampleAfterPath = "../../examples/cluster-after.snapshot.json"
)

// exampleAfter is the shipped example cluster an hour later: the failed
// Debezium task restarted on another worker, jdbc-orders-source polled
// faster with a new password, its offsets and the S3 sink's commits moved,
// file-audit-sink was deleted and worker 10.0.1.13 left the group.
func exampleAfter(t *testing.T) *inspect.Dataset {
	t.Helper()
	ds, err := source.LoadFile(examplePath, inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	ds.TakenAtMs += 3600_000
	ts := ds.TakenAtMs - 60_000
	partOf := func(topic, key string) int32 {
		for _, r := range ds.Records {
			if r.Topic == topic && string(r.Key) == key {
				return r.Partition
			}
		}
		return 0
	}
	add := func(topic, key string, value []byte) {
		p := partOf(topic, key)
		if ds.EndOffsets[topic] == nil {
			ds.EndOffsets[topic] = map[int32]int64{}
		}
		off := ds.EndOffsets[topic][p]
		ds.EndOffsets[topic][p] = off + 1
		ts += 1000
		ds.Records = append(ds.Records, inspect.Record{Topic: topic, Partition: p, Offset: off, Timestamp: ts, Key: []byte(key), Value: value})
	}
	// A new config for jdbc-orders-source: the latest one, two keys changed.
	var cfg map[string]map[string]any
	for _, r := range ds.Records {
		if r.Topic == ds.Topics.Config && string(r.Key) == "connector-jdbc-orders-source" {
			if err := json.Unmarshal(r.Value, &cfg); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg["properties"]["poll.interval.ms"] = "1000"
	cfg["properties"]["connection.password"] = "rotated-in-vault"
	value, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	add(ds.Topics.Config, "connector-jdbc-orders-source", value)
	add(ds.Topics.Config, "connector-file-audit-sink", nil)
	add(ds.Topics.Status, "status-connector-file-audit-sink", nil)
	add(ds.Topics.Status, "status-task-file-audit-sink-0", nil)
	add(ds.Topics.Status, "status-task-debezium-inventory-0",
		[]byte(`{"state":"RUNNING","trace":null,"worker_id":"10.0.1.12:8083","generation":9}`))
	add(ds.Topics.Offset, `["jdbc-orders-source",{"protocol":"1","table":"shop.public.orders"}]`, []byte(`{"incrementing":48977}`))
	sinks := ds.SinkGroups[:0]
	for _, g := range ds.SinkGroups {
		if g.Connector != "file-audit-sink" {
			sinks = append(sinks, g)
		}
	}
	ds.SinkGroups = sinks
	for i := range ds.SinkGroups {
		if ds.SinkGroups[i].Connector != "s3-orders-sink" {
			continue
		}
		for j := range ds.SinkGroups[i].Offsets {
			o := &ds.SinkGroups[i].Offsets[j]
			if o.Committed < o.End {
				o.Committed = o.End
			}
		}
	}
	kept := ds.Group.Members[:0]
	for _, m := range ds.Group.Members {
		if m.ClientID != "connect-10.0.1.13:8083" {
			kept = append(kept, m)
		}
	}
	ds.Group.Members = kept
	ds.Source = "kafka:kafka-1:9092"
	return ds
}

func TestExampleAfterSnapshot(t *testing.T) {
	var buf bytes.Buffer
	if err := source.WriteSnapshot(&buf, exampleAfter(t)); err != nil {
		t.Fatal(err)
	}
	if golden.Update() {
		if err := os.WriteFile(exampleAfterPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(exampleAfterPath)
	if err != nil {
		t.Fatalf("%v (regenerate with go test ./inspect/diff -run TestExampleAfterSnapshot -update)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s is not what exampleAfter builds: regenerate with -update and review the diff", filepath.Base(exampleAfterPath))
	}
}
