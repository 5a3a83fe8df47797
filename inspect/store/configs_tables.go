package store

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
)

// Tables shows connectors (wide: class and config), tasks, the session key,
// task-count records, restart requests and problems.
func (r *ConfigsResult) Tables() []format.Table {
	conns := format.Table{
		Title:  "Connectors (" + r.Topic + ")",
		Header: []string{"NAME", "TYPE", "TARGET", "TASKS", "RUNNABLE", "PENDING", "CONSISTENT", "CLASS", "CONFIG"},
		Wide:   []int{7, 8},
		Drop:   []int{5, 4, 6}, // PENDING, RUNNABLE, CONSISTENT
		Footer: countsFooter(r.Records),
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
	out := []format.Table{conns}
	if len(tasks.Rows) > 0 {
		out = append(out, tasks)
	}
	if k := r.SessionKey; k != nil {
		out = append(out, format.Table{
			Title:  "Session key",
			Header: []string{"ALGORITHM", "CREATED", "KEY"},
			Rows:   [][]string{{k.Algorithm, timeText(k.CreatedAtMs), k.Key}},
		})
	}
	if len(r.TaskCountRecords) > 0 {
		t := format.Table{Title: "Task-count records (fencing)", Header: []string{"CONNECTOR", "TASK COUNT"}}
		names := make([]string, 0, len(r.TaskCountRecords))
		for name := range r.TaskCountRecords {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			t.Rows = append(t.Rows, []string{name, strconv.Itoa(int(r.TaskCountRecords[name]))})
		}
		out = append(out, t)
	}
	if len(r.RestartRequests) > 0 {
		t := format.Table{Title: "Restart requests (latest per connector)", Header: []string{"CONNECTOR", "INCLUDE TASKS", "ONLY FAILED", "OFFSET"}}
		for _, q := range r.RestartRequests {
			t.Rows = append(t.Rows, []string{q.Connector, strconv.FormatBool(q.IncludeTasks), strconv.FormatBool(q.OnlyFailed), strconv.FormatInt(q.Offset, 10)})
		}
		out = append(out, t)
	}
	return append(out, problemTables(r.Problems)...)
}

// Items gives one JSON line per connector for -o jsonl.
func (r *ConfigsResult) Items() []any { return format.Items(r.Connectors) }

func countsFooter(c inspect.RecordCounts) []string {
	return []string{"records read " + strconv.Itoa(c.Read) + ", decoded " + strconv.Itoa(c.Decoded) +
		", tombstones " + strconv.Itoa(c.Tombstones) + ", problems " + strconv.Itoa(c.Problems)}
}

// problemTables lists problems, or nothing when there are none.
func problemTables(problems []inspect.Problem) []format.Table {
	if len(problems) == 0 {
		return nil
	}
	t := format.Table{Title: "Problems", Header: []string{"TOPIC", "PARTITION", "OFFSET", "KEY", "REASON"}, Key: []int{0, 1, 2}, Wrap: []int{4}}
	for _, p := range problems {
		topic, partition, offset, key := "-", "-", "-", "-"
		if p.Topic != "" {
			topic = p.Topic
		}
		if p.Partition >= 0 {
			partition = strconv.Itoa(int(p.Partition))
		}
		if p.Offset >= 0 {
			offset = strconv.FormatInt(p.Offset, 10)
		}
		if p.Key != "" {
			key = p.Key
		}
		t.Rows = append(t.Rows, []string{topic, partition, offset, key, p.Reason})
	}
	return []format.Table{t}
}

func optInt(n *int32) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(int(*n))
}

// timeText shows epoch milliseconds as UTC time.
func timeText(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}

// configText renders a config map as sorted key=value pairs on one line.
func configText(cfg map[string]any) string {
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		var v string
		switch x := cfg[k].(type) {
		case string:
			v = x
		case nil:
			v = "null"
		default:
			b, _ := json.Marshal(x)
			v = string(b)
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// firstLine is the first line of a stack trace.
func firstLine(s *string) string {
	if s == nil {
		return ""
	}
	line, _, _ := strings.Cut(*s, "\n")
	return strings.TrimRight(line, "\r")
}
