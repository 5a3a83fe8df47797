package main

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
)

// The dump must read back as a clean status topic: every line a record,
// every record decoded or a tombstone, and the latest-per-key work real
// (far fewer statuses than records).
func TestDumpDecodesCleanly(t *testing.T) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	o := options{records: 20000, connectors: 50, tasks: 4, workers: 5, partitions: 3, seed: 1, topic: "connect-status"}
	if err := generate(w, o); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	ds, err := source.ReadKcat(&buf, inspect.DefaultTopicNames())
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Problems) != 0 || len(ds.Records) != o.records {
		t.Fatalf("read %d records, %d input problems (first: %v)", len(ds.Records), len(ds.Problems), ds.Problems)
	}
	res := store.DecodeStatus(ds.Records, store.DecodeOptions{})
	c := res.Records
	if c.Read != o.records || c.Problems != 0 || c.Tombstones == 0 || c.Decoded+c.Tombstones != c.Read {
		t.Fatalf("counts %+v, problems %v", c, res.Problems)
	}
	if len(res.Tasks) == 0 || len(res.Tasks) > o.connectors*o.tasks || len(res.Topics) == 0 {
		t.Errorf("%d tasks, %d topics: want 1..%d tasks and some topics", len(res.Tasks), len(res.Topics), o.connectors*o.tasks)
	}
	failed := 0
	for _, ts := range res.Tasks {
		if ts.State == "FAILED" && ts.Trace != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Error("no FAILED task with a trace survived; the dump should exercise escaped traces")
	}
}
