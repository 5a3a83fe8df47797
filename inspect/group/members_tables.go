package group

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// Tables shows the group as one table: a row per member, sorted by member
// id; the latest assignment's delta and delay only with -o wide.
func (r MembersResult) Tables() []format.Table {
	title := fmt.Sprintf("group %s  state %s  protocol %s  leader %s  members %d",
		cell(r.Group), cell(r.State), cell(r.Protocol), cell(format.TextOr(r.Leader, "")), len(r.Members))
	if r.ProtocolType != "" && r.ProtocolType != "connect" {
		title += "  protocol type " + r.ProtocolType
	}
	t := format.Table{
		Title:  title,
		Header: []string{"MEMBER", "HOST/URL", "VERSION", "CONFIG OFFSET", "CONNECTORS", "TASKS", "ASSIGNED", "REVOKED", "DELAY MS"},
		Rows:   [][]string{},
		Wide:   []int{6, 7, 8},
	}
	var footer []string
	if r.Note != nil {
		footer = append(footer, "note: "+*r.Note)
	}
	for _, m := range r.Members {
		host := m.ClientHost
		if m.URL != nil {
			host = strings.TrimSpace(host + " " + *m.URL)
		}
		row := []string{m.MemberID, cell(host), "?", "?", "?", "?", "?", "?", "?"}
		if m.Version != nil {
			row[2] = strconv.Itoa(int(*m.Version))
		}
		if m.ConfigOffset != nil {
			row[3] = strconv.FormatInt(*m.ConfigOffset, 10)
			if m.ConfigBehind != nil && *m.ConfigBehind {
				row[3] += fmt.Sprintf(" (behind %d)", *m.ConfigLag)
				footer = append(footer, fmt.Sprintf("behind: %s joined at config offset %d of %d, before config changes that rebalance the group: a rebalance is pending, or it is still catching up or cannot read the topic (worker.sync.timeout.ms)", m.MemberID, *m.ConfigOffset, *r.ConfigEndOffset))
			}
		}
		if m.Owned != nil {
			row[4] = joinOr(m.Owned.Connectors)
			row[5] = joinOr(m.Owned.Tasks)
		}
		if a := m.Assignment; a != nil {
			row[6] = countText(a.Connectors, a.Tasks)
			row[7] = countText(a.RevokedConnectors, a.RevokedTasks)
			row[8] = strconv.FormatInt(a.DelayMs, 10)
			if a.Error != 0 {
				row[6] += fmt.Sprintf(" (error %d)", a.Error)
			}
		}
		t.Rows = append(t.Rows, row)
		if m.Problem != nil {
			footer = append(footer, fmt.Sprintf("problem: %s: %s", m.MemberID, *m.Problem))
		}
		for _, w := range m.Warnings {
			footer = append(footer, fmt.Sprintf("warning: %s: %s", m.MemberID, w))
		}
	}
	t.Footer = footer
	return []format.Table{t}
}

func countText(conns, tasks []string) string {
	return plural(len(conns), "connector") + ", " + plural(len(tasks), "task")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func joinOr(ss []string) string {
	if len(ss) == 0 {
		return "-"
	}
	return strings.Join(ss, ", ")
}

func cell(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
