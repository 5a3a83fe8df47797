package detail

import (
	"errors"
	"github.com/connectscope/connectscope/inspect/redact"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

func example(t *testing.T, showSecrets bool) *views.Dataset {
	t.Helper()
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	return views.Decode(ds, store.DecodeOptions{ShowSecrets: showSecrets})
}

func TestDescribeSource(t *testing.T) {
	d, err := Describe(example(t, false), "jdbc-orders-source")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Configured || *d.Type != "source" || *d.TargetState != "STARTED" || *d.State != "RUNNING" || *d.Generation != 5 {
		t.Errorf("fields: %+v", d)
	}
	if d.Config["connection.password"] != redact.Placeholder {
		t.Errorf("password shown: %v", d.Config["connection.password"])
	}
	if len(d.Tasks) != 2 || !d.Tasks[0].Committed || d.Tasks[0].Config["connection.password"] != redact.Placeholder {
		t.Errorf("tasks: %+v", d.Tasks)
	}
	if len(d.Offsets) != 2 || d.SinkGroup != nil {
		t.Errorf("offsets %d, sink group %v", len(d.Offsets), d.SinkGroup)
	}
	// The owner of each task in the group is the worker whose status it wrote.
	for _, task := range d.Tasks {
		if task.Owner == nil || task.WorkerID == nil || *task.Owner != *task.WorkerID {
			t.Errorf("%s: owner %v, status worker %v", task.ID, task.Owner, task.WorkerID)
		}
	}
	if d.Records.Read != d.Records.Decoded+d.Records.Tombstones+d.Records.Problems {
		t.Errorf("records do not add up: %+v", d.Records)
	}
	shown, err := Describe(example(t, true), "jdbc-orders-source")
	if err != nil || shown.Config["connection.password"] == redact.Placeholder {
		t.Errorf("--show-secrets: %v, %v", err, shown.Config["connection.password"])
	}
}

func TestDescribeSinkAndInconsistent(t *testing.T) {
	d, err := Describe(example(t, false), "s3-orders-sink")
	if err != nil {
		t.Fatal(err)
	}
	if d.SinkGroup == nil || d.SinkGroup.Group != "connect-s3-orders-sink" || d.SinkGroup.Lag == nil || *d.SinkGroup.Lag != 347 {
		t.Fatalf("sink group: %+v", d.SinkGroup)
	}
	if len(d.Offsets) != 0 || strings.Join(d.Topics, ",") != "orders" {
		t.Errorf("offsets %v, topics %v", d.Offsets, d.Topics)
	}
	m, err := Describe(example(t, false), "mongo-events-source")
	if err != nil {
		t.Fatal(err)
	}
	if m.Consistent || len(m.Tasks) != 1 || m.Tasks[0].Committed || !m.Tasks[0].Stale || m.Tasks[0].Owner != nil {
		t.Errorf("inconsistent connector: consistent %t, tasks %+v", m.Consistent, m.Tasks)
	}
}

func TestDescribeNotFound(t *testing.T) {
	_, err := Describe(example(t, false), "nosuch")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, views.ErrNotFound) || len(nf.Known) != 6 || !strings.Contains(err.Error(), "debezium-inventory, es-orders-sink") {
		t.Fatalf("%v", err)
	}
	_, err = Describe(views.Decode(&inspect.Dataset{}, store.DecodeOptions{}), "x")
	if err == nil || !strings.Contains(err.Error(), "holds no connector") {
		t.Errorf("empty input: %v", err)
	}
}
