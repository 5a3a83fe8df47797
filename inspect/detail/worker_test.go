package detail

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

func exampleDataset(t *testing.T, path string) *views.Dataset {
	t.Helper()
	ds, err := source.LoadFile(path, inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	return views.Decode(ds, store.DecodeOptions{})
}

// inspect worker W: one worker whole, found by any of its names; a worker
// that left is described by the work its status records still name and no
// member holds; a name nobody knows is not found, naming the known ones.
func TestDescribeWorker(t *testing.T) {
	ds := exampleDataset(t, "../../examples/cluster.snapshot.json")
	for _, name := range []string{"10.0.1.11:8083", "10.0.1.11", "http://10.0.1.11:8083/", "connect-10.0.1.11:8083", "connect-10.0.1.11:8083-3f6b2a1e-8c4d-4a57-9a0e-2b1c5d7e9f10"} {
		w, err := DescribeWorker(ds, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w.Worker != "10.0.1.11:8083" || !w.Member || !w.Leader || w.MemberID == nil || w.URL == nil || w.ConfigOffset == nil {
			t.Errorf("%s: %+v", name, w)
		}
		if len(w.Connectors) != 2 || len(w.Tasks) != 3 || w.Assignment == nil {
			t.Errorf("%s: runs %+v %+v", name, w.Connectors, w.Tasks)
		}
	}
	w, _ := DescribeWorker(ds, "10.0.1.11:8083")
	var failed bool
	for _, p := range w.Tasks {
		failed = failed || p.Name == "debezium-inventory-0" && p.State != nil && *p.State == "FAILED"
	}
	if !failed {
		t.Errorf("debezium-inventory-0 should run on 10.0.1.11:8083, FAILED: %+v", w.Tasks)
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, w, format.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Worker 10.0.1.11:8083", "leader", "debezium-inventory-0", "FAILED"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	// The cluster an hour later: 10.0.1.13 left, its work no member holds.
	after := exampleDataset(t, "../../examples/cluster-after.snapshot.json")
	gone, err := DescribeWorker(after, "10.0.1.13:8083")
	if err != nil {
		t.Fatal(err)
	}
	if gone.Member || len(gone.Held) == 0 || len(gone.Notes) == 0 {
		t.Errorf("departed worker: %+v", gone)
	}
	_, err = DescribeWorker(ds, "10.9.9.9:8083")
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "worker" || !errors.Is(err, views.ErrNotFound) || !strings.Contains(err.Error(), "10.0.1.12:8083") {
		t.Errorf("unknown worker: %v", err)
	}
	_, err = DescribeWorker(views.Decode(&inspect.Dataset{}, store.DecodeOptions{}), "x:8083")
	if err == nil || err.Error() != `worker "x:8083" not found: the input names no worker` {
		t.Errorf("empty input: %v", err)
	}
}

// A worker id is cluster data: one a status record names with a '/' (or
// any other text) is found by that exact name, not cut down to a HOST:PORT
// nobody has.
func TestDescribeWorkerByExactStatusName(t *testing.T) {
	id := "w1\x1b]0;t\x07</svg>$(x):8083"
	topics := inspect.DefaultTopicNames()
	ds := views.Decode(&inspect.Dataset{Topics: topics, Records: []inspect.Record{{Topic: topics.Status,
		Key: []byte("status-task-c-0"), Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"w1\u001b]0;t\u0007</svg>$(x):8083","generation":1}`)}}}, store.DecodeOptions{})
	w, err := DescribeWorker(ds, id)
	if err != nil {
		t.Fatal(err)
	}
	if w.Worker != id {
		t.Errorf("worker %q, want %q", w.Worker, id)
	}
}
