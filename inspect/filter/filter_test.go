package filter

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/views"
)

func example(t *testing.T) *views.Dataset {
	t.Helper()
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	return views.Decode(ds, views.Options{})
}

// Names by regular expression, type from the configs, state per row.
func TestFilters(t *testing.T) {
	d := example(t)
	s, err := Parse("orders", "sink", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Types = Types(d.Configs())
	conns := d.Connectors()
	s.Connectors(conns)
	var names []string
	for _, c := range conns.Connectors {
		names = append(names, c.Name)
	}
	if len(names) != 2 || names[0] != "es-orders-sink" || names[1] != "s3-orders-sink" {
		t.Errorf("orders sinks: %v", names)
	}
	failed, err := Parse("", "", []string{"failed"})
	if err != nil {
		t.Fatal(err)
	}
	st := d.Status()
	failed.Status(st)
	if len(st.Connectors) != 0 || len(st.Tasks) != 1 || st.Tasks[0].ID != "debezium-inventory-0" || len(st.Topics) != 0 {
		t.Errorf("--state FAILED: %+v %+v %+v", st.Connectors, st.Tasks, st.Topics)
	}
	src, _ := Parse("^mongo", "", nil)
	offs := d.Offsets()
	src.Offsets(offs)
	if len(offs.Offsets) != 1 || offs.Offsets[0].Connector != "mongo-events-source" {
		t.Errorf("offsets of ^mongo: %+v", offs.Offsets)
	}
	for _, bad := range [][3]string{{"(", "", ""}, {"", "both", ""}, {"", "", "HAPPY"}} {
		if _, err := Parse(bad[0], bad[1], []string{bad[2]}); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
