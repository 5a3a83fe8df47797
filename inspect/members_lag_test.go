package inspect

import "testing"

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
	if got := tables[0].Rows[0][3]; got != "27 (behind 3)" {
		t.Errorf("config offset cell %q", got)
	}
	if len(tables[0].Footer) == 0 {
		t.Error("no footer line for a worker that is behind")
	}
}
