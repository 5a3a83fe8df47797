package store

import (
	"fmt"
	"strconv"

	"github.com/connectscope/connectscope/format"
)

// Tables shows one row per connector; wide adds class and worker.
func (r *ConnectorsResult) Tables() []format.Table {
	// UNOWNED only when the group was read: a dump cannot tell.
	ownership := false
	for _, c := range r.Connectors {
		ownership = ownership || c.Unowned != nil
	}
	header := []string{"NAME", "TYPE", "TARGET", "STATE", "TASKS", "COMMITTED", "RUNNING", "FAILED", "CONSISTENT"}
	if ownership {
		header = append(header, "UNOWNED")
	}
	n := len(header)
	t := format.Table{
		Title:  "Connectors",
		Header: append(header, "STALE", "CLASS", "WORKER"),
		Wide:   []int{n, n + 1, n + 2},
		Drop:   []int{8, 5, 2, 1, 6}, // CONSISTENT, COMMITTED, TARGET, TYPE, RUNNING: what a narrow terminal misses least
	}
	for _, c := range r.Connectors {
		consistent := "-" // a connector without config has no task state to be consistent about
		if c.Configured {
			consistent = strconv.FormatBool(c.Consistent)
		}
		row := []string{c.Name, format.TextOr(c.Type, "-"), format.TextOr(c.TargetState, "-"), format.TextOr(c.State, "-"),
			optInt(c.TasksConfigured), strconv.Itoa(c.TasksCommitted), strconv.Itoa(c.TasksRunning),
			strconv.Itoa(c.TasksFailed), consistent}
		if ownership {
			row = append(row, unownedText(c))
		}
		t.Rows = append(t.Rows, append(row, strconv.Itoa(c.TasksStale), format.TextOr(c.Class, "-"), format.TextOr(c.WorkerID, "-")))
	}
	return viewTables(r.Records, r.Problems, t)
}

// Items gives one JSON line per connector.
func (r *ConnectorsResult) Items() []any { return format.Items(r.Connectors) }

// unownedText is the UNOWNED cell: "-" when ownership is unknown, the count,
// and for held work the delay the leader announced ("3 held ≤40s").
func unownedText(c ConnectorSummary) string {
	switch {
	case c.Unowned == nil:
		return "-"
	case *c.Unowned > 0 && c.HeldForMs != nil:
		return fmt.Sprintf("%d held ≤%s", *c.Unowned, format.Millis(*c.HeldForMs))
	}
	return strconv.Itoa(*c.Unowned)
}
