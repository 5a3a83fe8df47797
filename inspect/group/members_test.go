package group

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

func mustEncodeMetadata(t *testing.T, m *protocol.MemberMetadata) []byte {
	t.Helper()
	b, err := protocol.EncodeMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustEncodeAssignment(t *testing.T, a *protocol.Assignment) []byte {
	t.Helper()
	b, err := protocol.EncodeAssignment(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tr(c string, n int32) protocol.TaskRef { return protocol.TaskRef{Connector: c, Task: n} }

func TestMembersCooperative(t *testing.T) {
	// w1 holds orders, orders-0, orders-1 and customers-2. Its embedded
	// allocation also carries revoked lists from the previous round that
	// name orders-1: history, which must not be subtracted again.
	alloc := &protocol.Assignment{Version: 2, Leader: "w1-1", LeaderURL: "http://w1:8083/", ConfigOffset: 17,
		Assigned: protocol.EntriesFor([]string{"orders"}, []protocol.TaskRef{tr("orders", 0), tr("orders", 1), tr("customers", 2)}),
		Revoked:  protocol.EntriesFor(nil, []protocol.TaskRef{tr("orders", 1)})}
	// The latest round revokes orders-0 and assigns audit and audit-0.
	asg := &protocol.Assignment{Version: 2, Leader: "w1-1", LeaderURL: "http://w1:8083/", ConfigOffset: 17,
		Assigned: protocol.EntriesFor([]string{"audit"}, []protocol.TaskRef{tr("audit", 0)}),
		Revoked:  protocol.EntriesFor(nil, []protocol.TaskRef{tr("orders", 0)}), DelayMs: 0}
	fresh := &protocol.Assignment{Version: 2, Leader: "w1-1", LeaderURL: "http://w1:8083/", ConfigOffset: 17,
		Assigned: protocol.EntriesFor(nil, []protocol.TaskRef{tr("orders", 0)}), Revoked: []protocol.ConnectorEntry{}}
	desc := &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
		Members: []inspect.GroupMember{
			{MemberID: "w2-2", ClientID: "connect-w2", ClientHost: "/10.0.0.2",
				Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: "http://w2:8083/", ConfigOffset: 17}),
				Assignment: mustEncodeAssignment(t, fresh)},
			{MemberID: "w1-1", ClientID: "connect-w1", ClientHost: "/10.0.0.1",
				Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: "http://w1:8083/", ConfigOffset: 17, Allocation: alloc}),
				Assignment: mustEncodeAssignment(t, asg)},
		}}
	res := Members(desc)
	if res.Note != nil {
		t.Errorf("note = %q", *res.Note)
	}
	if res.Leader == nil || *res.Leader != "w1-1" {
		t.Errorf("leader = %v", res.Leader)
	}
	if len(res.Members) != 2 || res.Members[0].MemberID != "w1-1" || res.Members[1].MemberID != "w2-2" {
		t.Fatalf("members not sorted by id: %+v", res.Members)
	}
	w1 := res.Members[0]
	wantOwned := OwnedPieces{Connectors: []string{"audit", "orders"}, Tasks: []string{"audit-0", "customers-2", "orders-1"}}
	if w1.Owned == nil || !slices.Equal(w1.Owned.Connectors, wantOwned.Connectors) || !slices.Equal(w1.Owned.Tasks, wantOwned.Tasks) {
		t.Errorf("w1 owned = %+v, want %+v", w1.Owned, wantOwned)
	}
	if *w1.URL != "http://w1:8083/" || *w1.Version != 2 || *w1.ConfigOffset != 17 || w1.Problem != nil {
		t.Errorf("w1 = %+v", w1)
	}
	a := w1.Assignment
	if a == nil || !slices.Equal(a.Connectors, []string{"audit"}) || !slices.Equal(a.RevokedTasks, []string{"orders-0"}) || a.LeaderURL != "http://w1:8083/" {
		t.Errorf("w1 assignment = %+v", a)
	}
	// A worker with a null allocation owns what it was just assigned.
	if w2 := res.Members[1]; w2.Owned == nil || !slices.Equal(w2.Owned.Tasks, []string{"orders-0"}) || len(w2.Owned.Connectors) != 0 {
		t.Errorf("w2 owned = %+v", w2.Owned)
	}
	// The JSON form has every contract field, nulls included.
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"group":"connect-cluster"`, `"protocol_type":"connect"`, `"note":null`, `"client_host":"/10.0.0.1"`,
		`"config_offset":17`, `"owned":{"connectors":["audit","orders"]`, `"revoked_connectors":[]`, `"delay_ms":0`, `"problem":null`, `"metadata_base64":null`} {
		if !strings.Contains(string(raw), field) {
			t.Errorf("JSON lacks %s: %s", field, raw)
		}
	}
}

func TestMembersEager(t *testing.T) {
	asg := &protocol.Assignment{Version: 0, Leader: "w1-1", LeaderURL: "http://w1:8083/", ConfigOffset: 4,
		Assigned: protocol.EntriesFor([]string{"orders"}, []protocol.TaskRef{tr("orders", 1), tr("orders", 0)})}
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "default",
		Members: []inspect.GroupMember{{MemberID: "w1-1",
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 0, URL: "http://w1:8083/", ConfigOffset: 4}),
			Assignment: mustEncodeAssignment(t, asg)}}}
	res := Members(desc)
	m := res.Members[0]
	if m.Owned == nil || !slices.Equal(m.Owned.Connectors, []string{"orders"}) || !slices.Equal(m.Owned.Tasks, []string{"orders-0", "orders-1"}) {
		t.Errorf("owned = %+v", m.Owned)
	}
	if m.Assignment.Version != 0 || m.Assignment.RevokedTasks == nil || len(m.Assignment.RevokedTasks) != 0 {
		t.Errorf("assignment = %+v", m.Assignment)
	}
}

func TestMembersUndecodable(t *testing.T) {
	goodMeta := mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: "http://w1:8083/", ConfigOffset: 1})
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
		Members: []inspect.GroupMember{
			{MemberID: "a", Metadata: []byte{0, 2, 0, 9, 'h'}, Assignment: mustEncodeAssignment(t, &protocol.Assignment{Version: 2})},
			{MemberID: "b", Metadata: goodMeta, Assignment: []byte{0, 2, 0}},
		}}
	res := Members(desc)
	a, b := res.Members[0], res.Members[1]
	if a.Problem == nil || !strings.Contains(*a.Problem, "url") || a.MetadataBase64 == nil || a.AssignmentBase64 != nil || a.Owned != nil || a.URL != nil {
		t.Errorf("member a = %+v", a)
	}
	if raw, _ := base64.StdEncoding.DecodeString(*a.MetadataBase64); string(raw) != "\x00\x02\x00\x09h" {
		t.Errorf("metadata_base64 = %q", *a.MetadataBase64)
	}
	if b.Problem == nil || !strings.Contains(*b.Problem, "error") || b.AssignmentBase64 == nil || b.Owned != nil || b.URL == nil {
		t.Errorf("member b = %+v", b)
	}
	tables := res.Tables()
	if len(tables) != 1 || len(tables[0].Rows) != 2 || len(tables[0].Footer) != 2 {
		t.Errorf("tables = %+v", tables)
	}
}

func TestMembersNotes(t *testing.T) {
	cases := []struct {
		desc *inspect.GroupDescription
		want string
	}{
		{nil, "no group description"},
		{&inspect.GroupDescription{Group: "g", State: "Empty"}, "empty"},
		{&inspect.GroupDescription{Group: "g", State: "Dead"}, "does not exist"},
		{&inspect.GroupDescription{Group: "g", State: "PreparingRebalance", ProtocolType: "connect",
			Members: []inspect.GroupMember{{MemberID: "m"}}}, "rebalancing (PreparingRebalance)"},
		{&inspect.GroupDescription{Group: "g", State: "CompletingRebalance", ProtocolType: "connect",
			Members: []inspect.GroupMember{{MemberID: "m"}}}, "only reliable when the group is Stable"},
		{&inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.GroupMember{{MemberID: "m", Metadata: []byte{1, 2}}}}, "not a Kafka Connect group"},
	}
	for _, c := range cases {
		res := Members(c.desc)
		if res.Note == nil || !strings.Contains(*res.Note, c.want) {
			t.Errorf("%+v: note = %v, want it to say %q", c.desc, res.Note, c.want)
		}
		if res.Members == nil {
			t.Errorf("%+v: members is null", c.desc)
		}
	}
	// A consumer group's bytes are shown raw and never decoded.
	res := Members(cases[len(cases)-1].desc)
	if m := res.Members[0]; m.MetadataBase64 == nil || m.Problem != nil || m.Version != nil {
		t.Errorf("consumer member = %+v", m)
	}
	// Mid-rebalance members with empty bytes have no problem, just nulls.
	res = Members(cases[3].desc)
	if m := res.Members[0]; m.Problem != nil || m.Owned != nil || m.Assignment != nil {
		t.Errorf("rebalancing member = %+v", m)
	}
}

// A repeated member id is one member, read by its first entry, with a note:
// the view (and every count from it) never shows it twice.
func TestMembersListedTwice(t *testing.T) {
	entry := func(id, url string) inspect.GroupMember {
		return inspect.GroupMember{MemberID: id,
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 3}),
			Assignment: mustEncodeAssignment(t, &protocol.Assignment{Version: 2, Leader: "a-1", LeaderURL: "http://a:8083/", Assigned: protocol.EntriesFor([]string{id}, nil), Revoked: []protocol.ConnectorEntry{}})}
	}
	second := entry("b-2", "http://b:8083/")
	second.MemberID = "a-1"
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
		Members: []inspect.GroupMember{entry("a-1", "http://a:8083/"), entry("b-2", "http://b:8083/"), second}}
	res := Members(desc)
	if len(res.Members) != 2 {
		t.Fatalf("%d members, want 2: %+v", len(res.Members), res.Members)
	}
	if a := res.Members[0]; a.MemberID != "a-1" || a.Worker != "a:8083" || a.Owned == nil || strings.Join(a.Owned.Connectors, ",") != "a-1" {
		t.Errorf("a-1 is not read from its first entry: %+v %+v", a, a.Owned)
	}
	if res.Note == nil || !strings.Contains(*res.Note, `member "a-1" is listed 2 times in the group description: only its first entry is read`) {
		t.Errorf("note %v", res.Note)
	}
}

func TestMembersTable(t *testing.T) {
	asg := &protocol.Assignment{Version: 1, Leader: "w1-1", Assigned: protocol.EntriesFor([]string{"a"}, []protocol.TaskRef{tr("a", 0)}),
		Revoked: protocol.EntriesFor(nil, []protocol.TaskRef{tr("b", 3)}), DelayMs: 40}
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "compatible",
		Members: []inspect.GroupMember{{MemberID: "w1-1", ClientHost: "/10.0.0.1",
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 1, URL: "http://w1:8083/", ConfigOffset: 9}),
			Assignment: mustEncodeAssignment(t, asg)}}}
	tables := Members(desc).Tables()
	if len(tables) != 1 {
		t.Fatalf("%d tables", len(tables))
	}
	tb := tables[0]
	want := []string{"w1:8083", "leader", "1", "1", "9", "w1-1", "10.0.0.1", "1", "a", "a-0", "1 connector, 1 task", "0 connectors, 1 task", "40ms"}
	if len(tb.Rows) != 1 || !slices.Equal(tb.Rows[0], want) {
		t.Errorf("row = %q, want %q", tb.Rows, want)
	}
	if !slices.Equal(tb.Wide, []int{5, 6, 7, 8, 9, 10, 11, 12}) || len(tb.Header) != len(want) || !strings.Contains(tb.Title, "leader w1:8083") {
		t.Errorf("table = %+v", tb)
	}
}

// The leader carries the HOST:PORT name flags take beside its member id,
// in the view and in each assignment; a leader that is no member any more
// is named by the leader URL its assignments give.
func TestMembersLeaderWorker(t *testing.T) {
	asg := &protocol.Assignment{Version: 2, Leader: "gone-9", LeaderURL: "http://w9:8083/", ConfigOffset: 3,
		Assigned: protocol.EntriesFor(nil, nil), Revoked: []protocol.ConnectorEntry{}}
	member := func(id, url string, a *protocol.Assignment) inspect.GroupMember {
		return inspect.GroupMember{MemberID: id, ClientID: "connect-" + id,
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 3}),
			Assignment: mustEncodeAssignment(t, a)}
	}
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
		Members: []inspect.GroupMember{member("w1-1", "http://w1:8083/", asg)}}
	res := Members(desc)
	if res.LeaderWorker == nil || *res.LeaderWorker != "w9:8083" {
		t.Errorf("departed leader's worker = %v, want w9:8083", res.LeaderWorker)
	}
	if a := res.Members[0].Assignment; a == nil || a.LeaderWorker != "w9:8083" {
		t.Errorf("assignment = %+v, want leader_worker w9:8083", a)
	}

	lead := *asg
	lead.Leader, lead.LeaderURL = "w2-2", "http://w2.example:8084/"
	desc.Members = []inspect.GroupMember{member("w1-1", "http://w1:8083/", &lead), member("w2-2", "http://w2.example:8084/", &lead)}
	res = Members(desc)
	if res.LeaderWorker == nil || *res.LeaderWorker != "w2.example:8084" {
		t.Errorf("leader's worker = %v, want w2.example:8084", res.LeaderWorker)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"leader_worker":"w2.example:8084"`) {
		t.Errorf("JSON lacks leader_worker: %s", out)
	}
}

// A worker that puts user:password@, or a query or fragment, in its
// advertised REST URL: the name (HOST:PORT), the URL and the leader URL
// shown never carry them.
func TestMembersURLCredentialsNeverShown(t *testing.T) {
	url := "http://admin:s3cret@w1:8083/?access_token=t0k#frag"
	asg := &protocol.Assignment{Version: 2, Leader: "w1-1", LeaderURL: url, ConfigOffset: 3,
		Assigned: protocol.EntriesFor(nil, nil), Revoked: []protocol.ConnectorEntry{}}
	desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
		Members: []inspect.GroupMember{{MemberID: "w1-1", ClientID: "connect-w1:8083",
			Metadata:   mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 3}),
			Assignment: mustEncodeAssignment(t, asg)}}}
	res := Members(desc)
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "s3cret") || strings.Contains(string(out), "admin") || strings.Contains(string(out), "t0k") {
		t.Errorf("credentials shown: %s", out)
	}
	if got := WorkerID(res.Members[0]); got != "w1:8083" {
		t.Errorf("worker %q, want w1:8083", got)
	}
	if u := res.Members[0].URL; u == nil || *u != "http://w1:8083/" {
		t.Errorf("url %v", u)
	}
	// Only the authority's userinfo goes: an @ in the path stays.
	desc.Members[0].Metadata = mustEncodeMetadata(t, &protocol.MemberMetadata{Version: 2, URL: "http://a@b@w1:8083/x@y", ConfigOffset: 3})
	if u := Members(desc).Members[0].URL; u == nil || *u != "http://w1:8083/x@y" {
		t.Errorf("url %v", *u)
	}
}
