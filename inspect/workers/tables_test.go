package workers

import (
	"testing"

	"github.com/connectscope/connectscope/inspect/rest"
)

// The first column is the worker's HOST:PORT alone, the leader included,
// so that `--no-headers` output gives names flags accept.
func TestTableFirstColumnIsTheName(t *testing.T) {
	v := "4.1.0"
	r := Result{Workers: []Row{{WorkerInfo: rest.WorkerInfo{Worker: "w1:8083", Version: &v}, Leader: true},
		{WorkerInfo: rest.WorkerInfo{Worker: "w2:8083"}}}}
	tab := r.Tables()[0]
	for i, row := range tab.Rows {
		if row[0] != r.Workers[i].Worker {
			t.Errorf("row %d starts with %q, want %q", i, row[0], r.Workers[i].Worker)
		}
		if len(row) != len(tab.Header) {
			t.Errorf("row %d has %d cells for %d columns", i, len(row), len(tab.Header))
		}
	}
	if tab.Rows[0][1] != "leader" || tab.Rows[1][1] != "-" {
		t.Errorf("leader column: %q %q", tab.Rows[0][1], tab.Rows[1][1])
	}
}
