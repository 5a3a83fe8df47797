package sandbox

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/plan/assignor"
)

// The sandbox writes assigned lists as Kafka does: connectors in Java
// HashSet order whatever order they are held in, tasks grouped under their
// connector. Re-encoding Kafka's own bytes from scrambled lists must give
// the same bytes.
func TestAssignedEntriesMatchKafkaBytes(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../shared/vectors/protocol/assignment-v*-many.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("protocol vectors not found (../../shared/vectors/protocol): %v", err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Hex string `json:"hex"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := hex.DecodeString(v.Hex)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		a, err := protocol.DecodeAssignment(want)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		held := holdingOfEntries(a.Connectors(), a.Tasks())
		if len(held.Connectors) < 3 {
			t.Fatalf("%s: want a vector with several connectors, got %v", f, held.Connectors)
		}
		for _, order := range [][]string{sortedStrings(held.Connectors), reversed(held.Connectors)} {
			re := *a
			re.Assigned = heldEntries(holding{Connectors: order, Tasks: held.Tasks})
			got, err := protocol.EncodeAssignment(&re)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: connectors held as %v encode as\n%x\nwant Kafka's\n%x", filepath.Base(f), order, got, want)
			}
		}
	}
}

func sortedStrings(s []string) []string { out := slices.Clone(s); slices.Sort(out); return out }
func reversed(s []string) []string      { out := slices.Clone(s); slices.Reverse(out); return out }

// A round summary names what moved, and says so for eager rounds.
func TestRoundLine(t *testing.T) {
	t.Parallel()
	pieces := func(conns []string, tasks ...assignor.TaskID) assignor.Pieces {
		return assignor.Pieces{Connectors: conns, Tasks: tasks}
	}
	coop := RoundRecord{Generation: 7, Protocol: "sessioned", Leader: "worker-1", DelayMs: 300, Members: []RoundMember{
		{Worker: "worker-2", Assigned: pieces([]string{"a"}, assignor.TaskID{Connector: "a", Task: 1})},
		{Worker: "worker-1", Revoked: pieces(nil, assignor.TaskID{Connector: "b", Task: 0})},
	}}
	want := "rebalance: generation 7 (sessioned), leader worker-1, 2 members [worker-1 worker-2]: worker-1 -b-0; worker-2 +a +a-1; scheduled rebalance in 300ms"
	if got := coop.Line(); got != want {
		t.Errorf("cooperative:\n got %s\nwant %s", got, want)
	}
	eager := RoundRecord{Generation: 2, Protocol: "default", Leader: "worker-1", Members: []RoundMember{
		{Worker: "worker-1", Assigned: pieces([]string{"a"}, assignor.TaskID{Connector: "a", Task: 0})},
	}}
	want = "rebalance: generation 2 (default), leader worker-1, 1 members [worker-1]: everything restarted: worker-1 =a =a-0"
	if got := eager.Line(); got != want {
		t.Errorf("eager:\n got %s\nwant %s", got, want)
	}
	mismatch := RoundRecord{Generation: 3, Protocol: "compatible", Leader: "worker-1", ConfigMismatch: true, Members: []RoundMember{{Worker: "worker-1"}}}
	if got := mismatch.Line(); !strings.HasSuffix(got, ": CONFIG_MISMATCH, everyone rejoins") {
		t.Errorf("config mismatch: %s", got)
	}
}
