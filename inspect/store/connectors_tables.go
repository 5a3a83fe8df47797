package store

import (
	"strconv"

	"github.com/connectscope/connectscope/format"
)

// Tables shows one row per connector; wide adds class and worker.
func (r *ConnectorsResult) Tables() []format.Table {
	t := format.Table{
		Title: "Connectors",
		Header: []string{"NAME", "TYPE", "TARGET", "STATE", "TASKS", "COMMITTED", "RUNNING", "FAILED",
			"CONSISTENT", "STALE", "CLASS", "WORKER"},
		Wide:   []int{9, 10, 11},
		Footer: countsFooter(r.Records),
	}
	for _, c := range r.Connectors {
		consistent := "-" // a connector without config has no task state to be consistent about
		if c.Configured {
			consistent = strconv.FormatBool(c.Consistent)
		}
		t.Rows = append(t.Rows, []string{c.Name, format.TextOr(c.Type, "-"), format.TextOr(c.TargetState, "-"), format.TextOr(c.State, "-"),
			optInt(c.TasksConfigured), strconv.Itoa(c.TasksCommitted), strconv.Itoa(c.TasksRunning),
			strconv.Itoa(c.TasksFailed), consistent, strconv.Itoa(c.TasksStale), format.TextOr(c.Class, "-"), format.TextOr(c.WorkerID, "-")})
	}
	return append([]format.Table{t}, problemTables(r.Problems)...)
}

// Items gives one JSON line per connector.
func (r *ConnectorsResult) Items() []any { return format.Items(r.Connectors) }
