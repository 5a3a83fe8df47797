package group

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func TestMembersConfigEnd(t *testing.T) {
	off := func(v int64) *int64 { return &v }
	cases := []struct {
		name          string
		worker        *int64
		end           int64
		transactional bool
		wantLag       int64
		wantBehind    bool
	}{
		{"caught up", off(30), 30, false, 0, false},
		{"three behind", off(27), 30, false, 3, true},
		{"one behind", off(29), 30, false, 1, true},
		{"commit marker after the last record", off(29), 30, true, 1, false},
		{"behind under transactions", off(27), 30, true, 3, true},
		{"read past our end offset", off(32), 30, false, 0, false},
		{"nothing read yet", off(-1), 30, false, 31, true},
	}
	for _, c := range cases {
		r := MembersResult{Members: []MemberView{{MemberID: "w", ConfigOffset: c.worker}, {MemberID: "unknown"}}}
		r.ConfigEnd(c.end, c.transactional)
		m := r.Members[0]
		if r.ConfigEndOffset == nil || *r.ConfigEndOffset != c.end {
			t.Errorf("%s: config_end_offset %v", c.name, r.ConfigEndOffset)
		}
		if m.ConfigLag == nil || *m.ConfigLag != c.wantLag || m.ConfigBehind == nil || *m.ConfigBehind != c.wantBehind {
			t.Errorf("%s: lag %v behind %v, want %d %v", c.name, m.ConfigLag, m.ConfigBehind, c.wantLag, c.wantBehind)
		}
		if r.Members[1].ConfigLag != nil || r.Members[1].ConfigBehind != nil {
			t.Errorf("%s: a member without a config offset got a lag", c.name)
		}
	}
	// The table says so plainly.
	r := MembersResult{Members: []MemberView{{MemberID: "w", ConfigOffset: off(27)}}}
	r.ConfigEnd(30, false)
	tables := r.Tables()
	if got := tables[0].Rows[0][4]; got != "27 (behind 3)" {
		t.Errorf("config offset cell %q", got)
	}
	if len(tables[0].Footer) == 0 {
		t.Error("no footer line for a worker that is behind")
	}
}

// A member whose join-time offset misses only records that do not make the
// group rebalance (the session key the leader writes after a round, a pause,
// a restart request) has missed nothing; one that misses a commit is behind.
func TestMembersConfigRejoin(t *testing.T) {
	off := func(v int64) *int64 { return &v }
	rec := func(o int64, key, value string) inspect.Record {
		r := inspect.Record{Topic: "connect-configs", Offset: o, Key: []byte(key)}
		if value != "" {
			r.Value = []byte(value)
		}
		return r
	}
	records := []inspect.Record{
		rec(0, "connector-orders", `{"properties":{}}`),
		rec(1, "task-orders-0", `{"properties":{}}`),
		rec(2, "commit-orders", `{"tasks":1}`),
		rec(3, "session-key", `{"key":"a2V5","algorithm":"HmacSHA256","creation-timestamp":1}`),
		rec(4, "target-state-orders", `{"state":"PAUSED"}`),
		rec(5, "restart-connector-orders", `{"include-tasks":true}`),
		rec(6, "connector-orders", `not json`), // skipped by Connect, offset not advanced
		{Topic: "connect-status", Offset: 9, Key: []byte("status-connector-orders"), Value: []byte(`{}`)},
	}
	if got := ConfigRejoinFrom(records, "connect-configs"); got != 3 {
		t.Fatalf("ConfigRejoinFrom = %d, want 3 (after the commit)", got)
	}
	if got := ConfigRejoinFrom(nil, "connect-configs"); got != 0 {
		t.Errorf("no records: %d, want 0", got)
	}
	r := MembersResult{Members: []MemberView{
		{MemberID: "joined-after-commit", ConfigOffset: off(3)},
		{MemberID: "missed-the-commit", ConfigOffset: off(2)},
	}}
	r.ConfigEnd(7, false)
	r.ConfigRejoin(ConfigRejoinFrom(records, "connect-configs"))
	if m := r.Members[0]; *m.ConfigBehind || *m.ConfigLag != 4 {
		t.Errorf("%s: behind %v lag %d, want false 4", m.MemberID, *m.ConfigBehind, *m.ConfigLag)
	}
	if m := r.Members[1]; !*m.ConfigBehind || *m.ConfigLag != 5 {
		t.Errorf("%s: behind %v lag %d, want true 5", m.MemberID, *m.ConfigBehind, *m.ConfigLag)
	}
	tables := r.Tables()
	if got := tables[0].Rows[0][4]; got != "3" {
		t.Errorf("member that missed nothing: cell %q, want 3", got)
	}
	if got := tables[0].Rows[1][4]; got != "2 (behind 5)" {
		t.Errorf("member that missed the commit: cell %q", got)
	}
}
