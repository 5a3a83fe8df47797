package group_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
)

func TestSinksView(t *testing.T) {
	ds := &inspect.Dataset{Source: "kafka:x", SinkGroups: []inspect.SinkGroup{
		{Group: "connect-b", Connector: "b", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.SinkMember{
				{MemberID: "m2", ClientID: "connector-consumer-b-10", ClientHost: "/10.0.0.2",
					Partitions: []inspect.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}},
				{MemberID: "m1", ClientID: "connector-consumer-b-2", ClientHost: "/10.0.0.1",
					Partitions: []inspect.TopicPartitions{{Topic: "t", Partitions: []int32{0, 2}}}},
			},
			Offsets: []inspect.PartitionOffset{
				{Topic: "t", Partition: 2, Committed: 5, End: 9},
				{Topic: "t", Partition: 0, Committed: 10, End: 10},
				{Topic: "t", Partition: 1, Committed: -1, End: 7},
			}},
		{Group: "connect-a", Connector: "a", State: "Dead", Members: []inspect.SinkMember{}, Offsets: []inspect.PartitionOffset{}},
	}}
	res := group.Sinks(ds, "")
	if len(res.Sinks) != 2 || res.Sinks[0].Connector != "a" || res.Note != nil {
		t.Fatalf("%+v", res)
	}
	a, b := res.Sinks[0], res.Sinks[1]
	if a.Note == nil || a.Lag != nil || a.Assignor != nil {
		t.Errorf("missing group view: %+v", a)
	}
	if b.Note != nil || *b.Assignor != "range" || b.Lag == nil || *b.Lag != 4 {
		t.Fatalf("b: note=%v lag=%v", b.Note, b.Lag)
	}
	// Tasks sort by number, not text: b-2 before b-10.
	if len(b.Tasks) != 2 || b.Tasks[0].ID != "b-2" || b.Tasks[0].Partitions != 2 || *b.Tasks[0].Lag != 4 ||
		b.Tasks[1].ID != "b-10" || b.Tasks[1].Lag != nil {
		t.Errorf("tasks %+v", b.Tasks)
	}
	p := b.Partitions
	if len(p) != 3 || p[0].Partition != 0 || *p[0].Task != "b-2" || *p[2].Lag != 4 || p[1].Lag != nil || p[1].Committed != nil || *p[1].MemberID != "m2" {
		t.Errorf("partitions %+v", p)
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"assignor":null`, `"lag":null`, `"committed":null`, `"task":"b-10"`, `"protocol_type":"consumer"`} {
		if !strings.Contains(string(js), field) {
			t.Errorf("JSON lacks %s: %s", field, js)
		}
	}
	tables := res.Tables()
	if len(tables) != 3 || len(tables[0].Rows) != 2 || len(tables[1].Rows) != 3 || len(tables[2].Rows) != 2 {
		t.Errorf("tables %+v", tables)
	}
	if got := group.Sinks(ds, "b"); len(got.Sinks) != 1 || len(got.Items()) != 1 {
		t.Errorf("filter: %+v", got)
	}
	if got := group.Sinks(&inspect.Dataset{Source: "file:dump.jsonl"}, ""); got.Note == nil || got.Sinks == nil {
		t.Errorf("dump: %+v", got)
	}
}

// Two consumers of one task (a zombie on a worker that left the Connect
// group) are both listed, each with its own partitions and lag, and noted.
func TestSinksTaskWithTwoConsumers(t *testing.T) {
	ds := &inspect.Dataset{Source: "kafka:x", SinkGroups: []inspect.SinkGroup{
		{Group: "connect-s", Connector: "s", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.SinkMember{
				{MemberID: "new", ClientID: "connector-consumer-s-0", ClientHost: "/10.0.0.2",
					Partitions: []inspect.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}},
				{MemberID: "old", ClientID: "connector-consumer-s-0", ClientHost: "/10.0.0.1",
					Partitions: []inspect.TopicPartitions{{Topic: "t", Partitions: []int32{2}}}},
			},
			Offsets: []inspect.PartitionOffset{
				{Topic: "t", Partition: 0, Committed: 1, End: 2},
				{Topic: "t", Partition: 1, Committed: 1, End: 3},
				{Topic: "t", Partition: 2, Committed: 1, End: 5},
			}},
	}}
	s := group.Sinks(ds, "").Sinks[0]
	if len(s.Tasks) != 2 {
		t.Fatalf("tasks %+v, want one entry per consumer", s.Tasks)
	}
	for i, want := range []struct {
		member string
		parts  int
		lag    int64
	}{{"new", 2, 3}, {"old", 1, 4}} {
		got := s.Tasks[i]
		if got.ID != "s-0" || got.MemberID != want.member || got.Partitions != want.parts || got.Lag == nil || *got.Lag != want.lag {
			t.Errorf("task %d: %+v (lag %v), want s-0 on %s with %d partitions, lag %d", i, got, got.Lag, want.member, want.parts, want.lag)
		}
	}
	if s.Note == nil || !strings.Contains(*s.Note, "more than one consumer for task s-0") {
		t.Errorf("note %v", s.Note)
	}
}
