package store

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
)

// viewTables lays out a topic's view as every view of the store shows it:
// its first table always, with the counts of the records read below it;
// the others only when they have rows; then the problems.
func viewTables(counts inspect.RecordCounts, problems []inspect.Problem, first format.Table, others ...format.Table) []format.Table {
	first.Footer = countsFooter(counts)
	out := []format.Table{first}
	for _, t := range others {
		if len(t.Rows) > 0 {
			out = append(out, t)
		}
	}
	return append(out, problemTables(problems)...)
}

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
	parts := make([]string, 0, len(cfg))
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
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
