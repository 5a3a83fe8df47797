package store

import (
	"maps"
	"slices"
	"strconv"

	"github.com/connectscope/connectscope/format"
)

// Tables shows connectors (wide: class and config), tasks, the session key,
// task-count records, restart requests and problems.
func (r *ConfigsResult) Tables() []format.Table {
	conns := format.Table{
		Title:  "Connectors (" + r.Topic + ")",
		Header: []string{"NAME", "TYPE", "TARGET", "TASKS", "RUNNABLE", "PENDING", "CONSISTENT", "CLASS", "CONFIG"},
		Wide:   []int{7, 8},
		Drop:   []int{5, 4, 6}, // PENDING, RUNNABLE, CONSISTENT
	}
	tasks := format.Table{Title: "Tasks", Header: []string{"ID", "CONNECTOR", "STATE", "CONFIG"}, Wide: []int{3}, Drop: []int{1}}
	for _, c := range r.Connectors {
		class, _ := c.Config["connector.class"].(string)
		conns.Rows = append(conns.Rows, []string{
			c.Name, ConnectorType(c.Config), c.TargetState, optInt(c.TaskCount),
			strconv.Itoa(len(c.Tasks)), strconv.Itoa(len(c.PendingTasks)), strconv.FormatBool(c.Consistent),
			class, configText(c.Config),
		})
		for _, t := range c.Tasks {
			tasks.Rows = append(tasks.Rows, []string{t.ID, c.Name, "committed", configText(t.Config)})
		}
		for _, id := range c.PendingTasks {
			tasks.Rows = append(tasks.Rows, []string{id, c.Name, "pending", ""})
		}
	}
	key := format.Table{Title: "Session key", Header: []string{"ALGORITHM", "CREATED", "KEY"}}
	if k := r.SessionKey; k != nil {
		key.Rows = [][]string{{k.Algorithm, timeText(k.CreatedAtMs), k.Key}}
	}
	counts := format.Table{Title: "Task-count records (fencing)", Header: []string{"CONNECTOR", "TASK COUNT"}}
	for _, name := range slices.Sorted(maps.Keys(r.TaskCountRecords)) {
		counts.Rows = append(counts.Rows, []string{name, strconv.Itoa(int(r.TaskCountRecords[name]))})
	}
	restarts := format.Table{Title: "Restart requests (latest per connector)", Header: []string{"CONNECTOR", "INCLUDE TASKS", "ONLY FAILED", "OFFSET"}}
	for _, q := range r.RestartRequests {
		restarts.Rows = append(restarts.Rows, []string{q.Connector, strconv.FormatBool(q.IncludeTasks), strconv.FormatBool(q.OnlyFailed), strconv.FormatInt(q.Offset, 10)})
	}
	return viewTables(r.Records, r.Problems, conns, tasks, key, counts, restarts)
}

// Items gives one JSON line per connector for -o jsonl.
func (r *ConfigsResult) Items() []any { return format.Items(r.Connectors) }
