package group

import (
	"reflect"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// A cooperative worker holds its newly assigned pieces first, then what its
// metadata allocation held minus the revoked pieces (assignor.md §6.3).
func TestMembersHeldOrder(t *testing.T) {
	alloc := &protocol.Assignment{Version: 2, Assigned: protocol.EntriesFor([]string{"b", "a"},
		[]protocol.TaskRef{{Connector: "b", Task: 0}, {Connector: "a", Task: 1}, {Connector: "a", Task: 0}})}
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: "http://w1:8083/", ConfigOffset: 5, Allocation: alloc})
	if err != nil {
		t.Fatal(err)
	}
	asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: "w1", ConfigOffset: 5,
		Assigned: protocol.EntriesFor([]string{"c"}, []protocol.TaskRef{{Connector: "c", Task: 0}, {Connector: "b", Task: 0}}),
		Revoked:  protocol.EntriesFor([]string{"a"}, []protocol.TaskRef{{Connector: "a", Task: 1}})})
	if err != nil {
		t.Fatal(err)
	}
	r := Members(&inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: protocol.ProtocolSessioned,
		Members: []inspect.GroupMember{{MemberID: "w1", Metadata: meta, Assignment: asg}}})
	h := r.Members[0].Held
	if h == nil {
		t.Fatal("no held order")
	}
	wantC := []string{"c", "b"}
	wantT := []protocol.TaskRef{{Connector: "c", Task: 0}, {Connector: "b", Task: 0}, {Connector: "a", Task: 0}}
	if !reflect.DeepEqual(h.Connectors, wantC) || !reflect.DeepEqual(h.Tasks, wantT) {
		t.Errorf("held %v %v, want %v %v", h.Connectors, h.Tasks, wantC, wantT)
	}
	// Owned is the same set, sorted.
	if o := r.Members[0].Owned; !reflect.DeepEqual(o.Connectors, []string{"b", "c"}) || !reflect.DeepEqual(o.Tasks, []string{"a-0", "b-0", "c-0"}) {
		t.Errorf("owned %+v", o)
	}
}
