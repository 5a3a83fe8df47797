package scenario

import (
	"strings"
	"testing"
)

func TestReplayTables(t *testing.T) {
	sc, err := ParseScenario([]byte(`{"scenario": 1, "name": "join", "steps": [
	  {"connectors": {"c1": 4, "c2": 4}}, {"join": ["w1"]}, {"rebalance": {}}, {"join": ["w2"]}, {"settle": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(sc, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tables := res.Tables()
	if len(tables) != len(res.Rounds)+1 || len(res.Rounds) != 3 {
		t.Fatalf("%d tables for %d rounds", len(tables), len(res.Rounds))
	}
	// assignor.md §5 A: w1 revokes 1 connector + 4 tasks, then w2 gets them.
	r2 := tables[1]
	if r2.Rows[0][0] != "w1" || r2.Rows[0][1] != "1/4" || r2.Rows[1][0] != "w2" || r2.Rows[1][2] != "-" {
		t.Errorf("round 2 rows %v", r2.Rows)
	}
	r3 := tables[2]
	if r3.Rows[1][2] != "1/4" || r3.Rows[1][4] != "1/4" {
		t.Errorf("round 3 rows %v", r3.Rows)
	}
	for _, tb := range tables {
		for _, row := range tb.Rows {
			if len(row) != len(tb.Header) {
				t.Errorf("%s: row %v does not match header %v", tb.Title, row, tb.Header)
			}
		}
		for _, i := range tb.Wide {
			if i >= len(tb.Header) {
				t.Errorf("%s: wide column %d out of range", tb.Title, i)
			}
		}
	}
	if !strings.Contains(tables[0].Footer[0], "configured 2 connectors, 8 tasks") {
		t.Errorf("footer %q", tables[0].Footer)
	}
	if got := fmtMs(300000); got != "5m" { // one duration style: format.Millis
		t.Errorf("fmtMs(300000) = %q", got)
	}
	if got := fmtMs(1600); got != "1.6s" {
		t.Errorf("fmtMs(1600) = %q", got)
	}
}
