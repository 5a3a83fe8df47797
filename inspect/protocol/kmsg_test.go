package protocol

import (
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/connectscope/connectscope/internal/vectors"
)

// franz-go's kmsg has generic Connect protocol types. They agree with our
// codecs on everything but task ids, which kmsg reads as int16 where Kafka's
// Connect protocol writes int32 (README "Reading a live cluster"): that is
// why connectscope decodes the group's bytes itself.

func TestMetadataAgreesWithKmsg(t *testing.T) {
	compared := 0
	for _, b := range vectors.ProtocolSeeds(t, "metadata") {
		ours, err := DecodeMetadata(b)
		if err != nil || len(ours.Warnings) > 0 {
			continue // kmsg has no notion of Kafka's lenient reads
		}
		var theirs kmsg.ConnectMemberMetadata
		if err := theirs.ReadFrom(b); err != nil {
			if ours.Version == 0 {
				continue // kmsg refuses the bytes a V0 reader ignores
			}
			t.Errorf("kmsg cannot read metadata %x that we read as %+v: %v", b, ours, err)
			continue
		}
		if theirs.Version != ours.Version || theirs.URL != ours.URL || theirs.ConfigOffset != ours.ConfigOffset {
			t.Errorf("metadata %x: kmsg %d %q %d, ours %d %q %d", b, theirs.Version, theirs.URL, theirs.ConfigOffset, ours.Version, ours.URL, ours.ConfigOffset)
		}
		compared++
	}
	if compared == 0 {
		t.Fatal("no metadata vector compared")
	}
}

func TestAssignmentAgreesWithKmsgButForTaskIDs(t *testing.T) {
	connectorsOnly := &Assignment{Version: 1, Leader: "m1", LeaderURL: "http://w1:8083/", ConfigOffset: 42,
		Assigned: []ConnectorEntry{{Connector: "orders"}, {Connector: "payments"}}, Revoked: []ConnectorEntry{{Connector: "refunds"}}, DelayMs: 1500}
	b, err := EncodeAssignment(connectorsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var theirs kmsg.ConnectMemberAssignment
	if err := theirs.ReadFrom(b); err != nil {
		t.Fatalf("kmsg cannot read an assignment without tasks: %v", err)
	}
	var names []string
	for _, a := range theirs.Assignment {
		names = append(names, a.Connector)
	}
	if theirs.Version != 1 || theirs.Leader != "m1" || theirs.LeaderURL != "http://w1:8083/" || theirs.ConfigOffset != 42 ||
		theirs.ScheduledDelay != 1500 || !slices.Equal(names, []string{"orders", "payments"}) ||
		len(theirs.Revoked) != 1 || theirs.Revoked[0].Connector != "refunds" {
		t.Errorf("kmsg read %+v from %+v", theirs, connectorsOnly)
	}

	// With tasks the two part ways: every id is four bytes on the wire and
	// kmsg takes two.
	withTasks := &Assignment{Version: 1, Leader: "m1", LeaderURL: "http://w1:8083/", ConfigOffset: 42,
		Assigned: []ConnectorEntry{{Connector: "orders", Tasks: []int32{-1, 0, 1}}}}
	b, err = EncodeAssignment(withTasks)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := DecodeAssignment(b)
	if err != nil || !slices.Equal(ours.Assigned[0].Tasks, []int32{-1, 0, 1}) {
		t.Fatalf("ours: %+v %v", ours, err)
	}
	theirs = kmsg.ConnectMemberAssignment{}
	err = theirs.ReadFrom(b)
	if err == nil && len(theirs.Assignment) == 1 && slices.Equal(int16s(theirs.Assignment[0].Tasks), []int32{-1, 0, 1}) {
		t.Fatalf("kmsg read the int32 task ids right (%+v): the int16 difference is gone; kmsg could decode the group's bytes", theirs)
	}
}

func int16s(ts []int16) []int32 {
	out := make([]int32, len(ts))
	for i, v := range ts {
		out[i] = int32(v)
	}
	return out
}
