package detail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
)

// Tables shows the connector as kubectl describe does: its fields, then its
// config, tasks, offsets and sink group, each a table of its own. Wide adds
// task generations and the first line of traces.
func (d *Connector) Tables() []format.Table {
	fields := format.Table{Title: "Connector " + d.Name, Header: []string{"FIELD", "VALUE"}, Wrap: []int{1}}
	add := func(k, v string) { fields.Rows = append(fields.Rows, []string{k, v}) }
	add("class", text(d.Class))
	add("type", text(d.Type))
	add("target state", text(d.TargetState))
	add("state", text(d.State))
	add("worker (status)", text(d.WorkerID))
	add("generation", int32Text(d.Generation))
	add("owner (group)", text(d.Owner))
	add("tasks (latest commit)", int32Text(d.TaskCount))
	consistent := "-"
	if d.Configured {
		consistent = strconv.FormatBool(d.Consistent)
	}
	add("consistent", consistent)
	if len(d.PendingTasks) > 0 {
		add("pending task configs", strings.Join(d.PendingTasks, ", "))
	}
	if len(d.Topics) > 0 {
		add("topics", strings.Join(d.Topics, ", "))
	}
	if d.Restart != nil {
		add("restart request", fmt.Sprintf("include tasks %t, only failed %t (offset %d)", d.Restart.IncludeTasks, d.Restart.OnlyFailed, d.Restart.Offset))
	}
	if d.Trace != nil {
		add("trace", firstLine(d.Trace))
	}
	if !d.Configured {
		fields.Footer = append(fields.Footer, "Connect holds no config for this connector: what is left are statuses or offsets of a deleted one")
	}
	for _, n := range d.Notes {
		fields.Footer = append(fields.Footer, "note: "+n)
	}
	fields.Footer = append(fields.Footer, fmt.Sprintf("records read %d, decoded %d, tombstones %d, problems %d",
		d.Records.Read, d.Records.Decoded, d.Records.Tombstones, d.Records.Problems))
	out := []format.Table{fields}

	if d.Config != nil {
		cfg := format.Table{Title: "Config", Header: []string{"KEY", "VALUE"}, Wrap: []int{1}}
		keys := slices.Sorted(maps.Keys(d.Config))
		for _, k := range keys {
			cfg.Rows = append(cfg.Rows, []string{k, ConfigValue(d.Config[k])})
		}
		out = append(out, cfg)
	}

	tasks := format.Table{Title: "Tasks", Header: []string{"ID", "STATE", "WORKER", "OWNER", "COMMITTED", "GENERATION", "TRACE"}, Wide: []int{5, 6}}
	for _, t := range d.Tasks {
		committed := strconv.FormatBool(t.Committed)
		if t.Stale {
			committed = "false (stale status)"
		}
		tasks.Rows = append(tasks.Rows, []string{t.ID, text(t.State), text(t.WorkerID), text(t.Owner), committed, int32Text(t.Generation), firstLine(t.Trace)})
	}
	if len(tasks.Rows) == 0 {
		tasks.Footer = []string{"(no tasks)"}
	}
	out = append(out, tasks)

	if len(d.Offsets) > 0 || (d.Type != nil && *d.Type == "source") {
		offs := format.Table{Title: "Source offsets", Header: []string{"PARTITION", "OFFSET", "KAFKA PARTITION", "KAFKA OFFSET"}, Wide: []int{2, 3}}
		for _, o := range d.Offsets {
			offs.Rows = append(offs.Rows, []string{compactJSON(o.Partition), compactJSON(o.Offset),
				strconv.Itoa(int(o.KafkaPartition)), strconv.FormatInt(o.KafkaOffset, 10)})
		}
		if len(offs.Rows) == 0 {
			offs.Footer = []string{"(no offsets stored)"}
		}
		out = append(out, offs)
	}

	if d.Type != nil && *d.Type == "sink" {
		sink := format.Table{Title: "Sink consumer group", Header: []string{"TOPIC", "PARTITION", "TASK", "COMMITTED", "END", "LAG", "MEMBER"}, Wide: []int{6}, Key: []int{0, 1}}
		if g := d.SinkGroup; g != nil {
			sink.Title = fmt.Sprintf("Sink consumer group %s (%s, lag %s)", g.Group, g.State, int64Text(g.Lag))
			for _, p := range g.Partitions {
				sink.Rows = append(sink.Rows, []string{p.Topic, strconv.Itoa(int(p.Partition)), text(p.Task),
					int64Text(p.Committed), int64Text(p.End), int64Text(p.Lag), text(p.MemberID)})
			}
			if g.Note != nil {
				sink.Footer = append(sink.Footer, "note: "+*g.Note)
			}
		} else {
			sink.Footer = []string{"(the input holds no consumer group for this sink: read it live or from a snapshot taken live)"}
		}
		out = append(out, sink)
	}
	return append(out, problemTable(d.Problems)...)
}

// ConfigValue is a decoded config value as text: strings as they are, a
// JSON null as "null", other JSON as written.
func ConfigValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.RawMessage:
		return string(x)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func problemTable(problems []inspect.Problem) []format.Table {
	if len(problems) == 0 {
		return nil
	}
	t := format.Table{Title: "Problems", Header: []string{"TOPIC", "PARTITION", "OFFSET", "KEY", "REASON"}, Key: []int{0, 1, 2}, Wrap: []int{4}}
	for _, p := range problems {
		partition, offset := "-", "-" // unknown for an input line that is no record
		if p.Partition >= 0 {
			partition = strconv.Itoa(int(p.Partition))
		}
		if p.Offset >= 0 {
			offset = strconv.FormatInt(p.Offset, 10)
		}
		t.Rows = append(t.Rows, []string{orDash(p.Topic), partition, offset, orDash(p.Key), p.Reason})
	}
	return []format.Table{t}
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func text(s *string) string {
	if s == nil || *s == "" {
		return "-"
	}
	return *s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func int32Text(n *int32) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(int(*n))
}

func int64Text(n *int64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatInt(*n, 10)
}

func firstLine(s *string) string {
	if s == nil {
		return "-"
	}
	line, _, _ := strings.Cut(*s, "\n")
	return line
}
