package format

import (
	"bytes"
	"strings"
	"testing"
)

// twoTables is shaped like `inspect members`: a group line, then members
// whose cells hold lists ("a, b"), two values ("/10.0.0.1 http://…") and
// an empty cell.
type twoTables struct{}

func (twoTables) Tables() []Table {
	return []Table{
		{Title: "Group", Header: []string{"group", "state"}, Rows: [][]string{{"connect-cluster", "Stable"}}},
		{Title: "Members", Header: []string{"member", "host/url", "connectors", "tasks"}, Rows: [][]string{
			{"w1", "/10.0.0.1 http://10.0.0.1:8083/", "orders, inventory", "orders-0, orders-1"},
			{"w2", "/10.0.0.2 http://10.0.0.2:8083/", "", "inventory-0"},
		}},
	}
}

// --no-headers is for awk and cut: every row of a table has as many blank-
// separated fields as the table has columns, and a blank line separates
// the tables (before, they ran together and the first table's row read as
// a member).
func TestNoHeadersParseable(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, twoTables{}, Options{NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n\n")
	if len(blocks) != 2 {
		t.Fatalf("want 2 tables separated by a blank line, got %d:\n%s", len(blocks), buf.String())
	}
	for i, want := range []int{2, 4} {
		for _, line := range strings.Split(blocks[i], "\n") {
			if got := len(strings.Fields(line)); got != want {
				t.Errorf("table %d: %d fields, want %d: %q", i, got, want, line)
			}
		}
	}
	members := strings.Split(blocks[1], "\n")
	if f := strings.Fields(members[0]); f[1] != "/10.0.0.1,http://10.0.0.1:8083/" || f[2] != "orders,inventory" || f[3] != "orders-0,orders-1" {
		t.Errorf("list cells not single tokens: %q", f)
	}
	if f := strings.Fields(members[1]); f[2] != "-" {
		t.Errorf("empty cell is %q, want -", f[2])
	}
	// With headers the cells keep their spaces.
	buf.Reset()
	if err := Write(&buf, twoTables{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "orders, inventory") {
		t.Errorf("table with headers changed its cells:\n%s", buf.String())
	}
}

// --no-headers rows are never fitted to a terminal: a narrow COLUMNS
// neither shortens, drops nor wraps a cell (each row stays one line with
// every field).
func TestNoHeadersIgnoresWidth(t *testing.T) {
	var narrow, whole bytes.Buffer
	if err := Write(&narrow, twoTables{}, Options{NoHeaders: true, Width: 20}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&whole, twoTables{}, Options{NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if narrow.String() != whole.String() {
		t.Errorf("width 20 changed --no-headers rows:\n%s\nwant\n%s", narrow.String(), whole.String())
	}
}
