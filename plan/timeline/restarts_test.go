package timeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Each worker takes its own measurement: the file's first, then the
// history's, then the file's longest of any worker; nothing at all falls
// back to the default and names the workers.
func TestAutoRestartTimesPrecedence(t *testing.T) {
	spec, err := cluster.ParseSynthetic("workers=4,connectors=4,tasks=1")
	if err != nil {
		t.Fatal(err)
	}
	st := cluster.SyntheticState(spec)
	var ids []string
	for _, w := range st.Workers {
		ids = append(ids, w.ID)
	}
	name := func(i int) string { return st.Name(ids[i]) }
	fileMax := int64(9000)
	r := AutoRestartTimes(st, RestartMeasurements{
		File:      map[string]int64{name(0): 4000},
		FileMaxMs: &fileMax,
		History:   map[string]int64{name(0): 50000, name(1): 7000},
	})
	want := []RestartTime{{4000, SourceRestartFile}, {7000, SourceHistory}, {9000, SourceRestartFileLongest}, {9000, SourceRestartFileLongest}}
	for i, id := range ids {
		if got := r.Workers[id]; got != want[i] {
			t.Errorf("%s: %+v, want %+v", name(i), got, want[i])
		}
	}
	if !slices.Equal(r.Missing, []string{name(2), name(3)}) || !strings.Contains(r.FallbackLine(), "file measured, 9s") {
		t.Errorf("missing %v, line %q", r.Missing, r.FallbackLine())
	}
	if r.Longest(1) != 9000 || r.For("nobody", 5) != 5 || (*RestartTimes)(nil).For(ids[0], 5) != 5 {
		t.Errorf("longest %d", r.Longest(1))
	}

	none := AutoRestartTimes(st, RestartMeasurements{})
	if len(none.Missing) != 4 || none.For(ids[0], 1) != DefaultRestartMs || !strings.Contains(none.FallbackLine(), "default 1m") {
		t.Errorf("no measurement: %+v, line %q", none, none.FallbackLine())
	}
	full := AutoRestartTimes(st, RestartMeasurements{History: map[string]int64{name(0): 1, name(1): 2, name(2): 3, name(3): 4}})
	if full.FallbackLine() != "" {
		t.Errorf("every worker measured, yet %q", full.FallbackLine())
	}
}

// History: a worker that stopped all its work and wrote again three
// generations later was away that long at most.
func TestHistoryRestarts(t *testing.T) {
	rec := func(key, state, worker string, gen int, at int64) inspect.Record {
		return inspect.Record{Topic: "connect-status", Timestamp: at, Key: []byte(key),
			Value: []byte(fmt.Sprintf(`{"state":%q,"trace":null,"worker_id":%q,"generation":%d}`, state, worker, gen))}
	}
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{
		rec("status-task-a-0", "RUNNING", "h1:8083", 1, 1000),
		rec("status-task-a-0", "UNASSIGNED", "h1:8083", 2, 2000),
		rec("status-task-a-0", "RUNNING", "h1:8083", 5, 9500),
	}}
	ds.Topics.Status = "connect-status"
	if got := HistoryRestarts(views.Of(ds)); got["h1:8083"] != 7500 || len(got) != 1 {
		t.Errorf("history restarts %v, want h1:8083 7500", got)
	}
	if got := HistoryRestarts(nil); len(got) != 0 {
		t.Errorf("no dataset: %v", got)
	}
}
