package filter

import (
	"errors"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// The flags' values as given: a regular expression, a type in any case,
// states repeated or comma-separated; a value not of these is refused
// naming its input. (The views apply the specs: inspect/views'
// TestViewsFilter, on the example snapshot.)
func TestParse(t *testing.T) {
	s, err := Parse("^orders", " Sink ", []string{"running,failed", ""})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name.String() != "^orders" || s.Type != "sink" || !slices.Equal(s.States, []string{"RUNNING", "FAILED"}) || !s.Active() {
		t.Errorf("spec %+v", s)
	}
	if s.String() != "names matching ^orders, sink connectors, state RUNNING or FAILED" {
		t.Errorf("String: %q", s.String())
	}
	if none, err := Parse("", "", nil); err != nil || none.Active() {
		t.Errorf("no filter: %+v %v", none, err)
	}
	for _, bad := range []struct{ pattern, typ, state, input string }{{"(", "", "", "Pattern"}, {"", "both", "", "Type"}, {"", "", "HAPPY", "State"}} {
		var fe *field.Error
		if _, err := Parse(bad.pattern, bad.typ, []string{bad.state}); !errors.As(err, &fe) || fe.Name != bad.input {
			t.Errorf("Parse(%+v): %v, want an error naming %s", bad, err, bad.input)
		}
	}
}

// Names and types narrow every kind of row; states narrow the rows that
// have one, each by its own state.
func TestSpecNarrows(t *testing.T) {
	sink := map[string]any{"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector"}
	source := map[string]any{"connector.class": "org.apache.kafka.connect.file.FileStreamSourceConnector"}
	configs := &store.ConfigsResult{Connectors: []store.ConnectorConfig{
		{Name: "orders-out", Config: sink, TargetState: "STARTED"},
		{Name: "orders-in", Config: source, TargetState: "PAUSED"},
		{Name: "audit-out", Config: sink, TargetState: "STARTED"},
	}}
	s, _ := Parse("orders", "sink", nil)
	s.Types = Types(configs)
	if s.Types["orders-in"] != "source" || s.Types["audit-out"] != "sink" {
		t.Errorf("types %v", s.Types)
	}
	s.Configs(configs)
	if len(configs.Connectors) != 1 || configs.Connectors[0].Name != "orders-out" {
		t.Errorf("configs: %+v", configs.Connectors)
	}
	running := "RUNNING"
	conns := &store.ConnectorsResult{Connectors: []store.ConnectorSummary{{Name: "orders-out", State: &running}, {Name: "orders-in", State: &running}, {Name: "orders-x"}}}
	s.Connectors(conns)
	if len(conns.Connectors) != 1 || conns.Connectors[0].Name != "orders-out" {
		t.Errorf("connectors: %+v", conns.Connectors)
	}
	failed, _ := Parse("", "", []string{"FAILED"})
	st := &store.StatusResult{
		Connectors: []store.ConnectorStatus{{Name: "a"}, {Name: "b"}},
		Tasks:      []store.TaskStatus{{Connector: "a"}, {Connector: "b"}},
		Topics:     []store.TopicStatus{{Connector: "a"}, {Connector: "c"}},
	}
	st.Connectors[0].State, st.Connectors[1].State = "RUNNING", "RUNNING"
	st.Tasks[0].State, st.Tasks[1].State = "RUNNING", "FAILED"
	failed.Status(st)
	if len(st.Connectors) != 0 || len(st.Tasks) != 1 || st.Tasks[0].Connector != "b" || len(st.Topics) != 0 {
		t.Errorf("status --state FAILED: %+v %+v %+v", st.Connectors, st.Tasks, st.Topics)
	}
	mongo, _ := Parse("^mongo", "", nil)
	offs := &store.OffsetsResult{Offsets: []store.SourceOffset{{Connector: "mongo-a"}, {Connector: "pg-mongo"}}}
	mongo.Offsets(offs)
	sinks := &group.SinksResult{Sinks: []group.SinkView{{Connector: "mongo-out"}, {Connector: "s3"}}}
	mongo.Sinks(sinks)
	if len(offs.Offsets) != 1 || offs.Offsets[0].Connector != "mongo-a" || len(sinks.Sinks) != 1 || sinks.Sinks[0].Connector != "mongo-out" {
		t.Errorf("^mongo: %+v %+v", offs.Offsets, sinks.Sinks)
	}
}
