package group

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// busyGroup is three workers named as real ones are, each owning 100 tasks.
func busyGroup(t *testing.T) *inspect.GroupDescription {
	desc := &inspect.GroupDescription{Group: "connect-prod", State: "Stable", ProtocolType: "connect", Protocol: "sessioned"}
	leader := ""
	for w := 1; w <= 3; w++ {
		hp := fmt.Sprintf("connect-worker-%d.prod.example.com:8083", w)
		id := "connect-" + hp + "-1f2e3d4c-4b1d-4c2e-9f3a-0000000000" + fmt.Sprint(w)
		if leader == "" {
			leader = id
		}
		var tasks []protocol.TaskRef
		for i := int32(0); i < 100; i++ {
			tasks = append(tasks, tr(fmt.Sprintf("orders-sink-%d", w), i))
		}
		asg := &protocol.Assignment{Version: 2, Leader: leader, Assigned: protocol.EntriesFor([]string{fmt.Sprintf("orders-sink-%d", w)}, tasks)}
		desc.Members = append(desc.Members, inspect.GroupMember{MemberID: id, ClientID: "connect-" + hp, ClientHost: "/10.0.1.1" + fmt.Sprint(w),
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: "http://" + hp + "/", ConfigOffset: 57}),
			Assignment: mustEncodeAssignment(t, asg)})
	}
	return desc
}

// The default members table names each worker by HOST:PORT, whole, and
// counts what it owns; the 54-character member id and the piece names are
// in -o wide; -o jsonl is one line per member, each with its worker name.
func TestMembersViewByWorker(t *testing.T) {
	res := Members(busyGroup(t))
	for _, width := range []int{60, 100, 200} {
		var buf bytes.Buffer
		if err := format.Write(&buf, res, format.Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		var header, first string
		for _, l := range strings.Split(out, "\n") {
			if header == "" && strings.HasPrefix(l, "WORKER") {
				header = l
			}
			if first == "" && strings.HasPrefix(l, "connect-worker-1.") {
				first = l
			}
		}
		if !strings.Contains(header, "TASKS") || !strings.Contains(header, "CONFIG OFF") {
			t.Errorf("width %d: header %q, want WORKER first, TASKS and CONFIG OFFSET:\n%s", width, header, out)
		}
		for w := 1; w <= 3; w++ {
			hp := fmt.Sprintf("connect-worker-%d.prod.example.com:8083", w)
			if !strings.Contains(out, hp) {
				t.Errorf("width %d: worker %s not whole:\n%s", width, hp, out)
			}
		}
		if strings.Contains(out, "orders-sink-1-0") || strings.Contains(out, "-1f2e3d4c-") {
			t.Errorf("width %d: piece names or member ids in the default table:\n%s", width, out)
		}
		if !strings.Contains(first, " 100 ") || !strings.HasSuffix(first, " 57") {
			t.Errorf("width %d: first row %q, want 100 tasks and config offset 57", width, first)
		}
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, res, format.Options{Output: "wide"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "orders-sink-2-99") || !strings.Contains(buf.String(), "-1f2e3d4c-") {
		t.Errorf("-o wide lacks the names:\n%.600s", buf.String())
	}
	buf.Reset()
	if err := format.Write(&buf, res, format.Options{Output: "jsonl"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("-o jsonl: %d lines, want one per member", len(lines))
	}
	var m struct {
		Worker   string `json:"worker"`
		MemberID string `json:"member_id"`
		Owned    struct {
			Tasks []string `json:"tasks"`
		} `json:"owned"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil || m.Worker != "connect-worker-1.prod.example.com:8083" || m.MemberID == "" || len(m.Owned.Tasks) != 100 {
		t.Errorf("jsonl line: %v %+v", err, m)
	}
}
