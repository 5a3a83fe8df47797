package group

import (
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// Tables shows a summary row per sink connector, then each partition with
// its holder and lag, then each task's lag. Member ids and hosts only with
// -o wide.
func (r SinksResult) Tables() []format.Table {
	summary := format.Table{Title: "sink connectors",
		Header: []string{"CONNECTOR", "GROUP", "STATE", "ASSIGNOR", "MEMBERS", "LAG"}, Rows: [][]string{}, Drop: []int{3, 4}}
	parts := format.Table{Title: "partitions",
		Header: []string{"CONNECTOR", "TOPIC", "PARTITION", "TASK", "COMMITTED", "END", "LAG", "MEMBER"},
		Rows:   [][]string{}, Wide: []int{7}, Key: []int{0, 1, 2}, Drop: []int{3, 5}}
	tasks := format.Table{Title: "tasks",
		Header: []string{"CONNECTOR", "TASK", "PARTITIONS", "LAG", "MEMBER", "HOST"},
		Rows:   [][]string{}, Wide: []int{4, 5}, Key: []int{0, 1}}
	if r.Note != nil {
		summary.Footer = append(summary.Footer, "note: "+*r.Note)
	}
	for _, s := range r.Sinks {
		summary.Rows = append(summary.Rows, []string{s.Connector, s.Group, s.State, format.TextOr(s.Assignor, "-"),
			strconv.Itoa(len(s.Members)), numText(s.Lag)})
		if s.Note != nil {
			summary.Footer = append(summary.Footer, s.Connector+": "+*s.Note)
		}
		for _, p := range s.Partitions {
			parts.Rows = append(parts.Rows, []string{s.Connector, p.Topic, strconv.Itoa(int(p.Partition)), format.TextOr(p.Task, "-"),
				numText(p.Committed), numText(p.End), numText(p.Lag), format.TextOr(p.MemberID, "-")})
		}
		hosts := map[string]string{}
		for _, m := range s.Members {
			hosts[m.MemberID] = m.ClientHost
		}
		for _, t := range s.Tasks {
			tasks.Rows = append(tasks.Rows, []string{s.Connector, t.ID, strconv.Itoa(t.Partitions), numText(t.Lag),
				t.MemberID, strings.TrimSpace(hosts[t.MemberID])})
		}
	}
	return []format.Table{summary, parts, tasks}
}

// Items prints one JSON line per sink connector with -o jsonl.
func (r SinksResult) Items() []any { return format.Items(r.Sinks) }

func numText(n *int64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatInt(*n, 10)
}
