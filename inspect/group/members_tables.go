package group

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// Tables shows the group as one table, a row per worker by its HOST:PORT
// (what status records, --worker, plans and --zones use), in the workers'
// natural order: whether it leads, how many connectors and tasks it owns,
// its config offset. -o wide adds the member id, client host, metadata
// version, the pieces by name and the latest assignment's delta and delay.
func (r MembersResult) Tables() []format.Table {
	title := fmt.Sprintf("group %s  state %s  protocol %s  leader %s  members %d",
		cell(r.Group), cell(r.State), cell(r.Protocol), cell(r.leaderWorker()), len(r.Members))
	if r.ProtocolType != "" && r.ProtocolType != "connect" {
		title += "  protocol type " + r.ProtocolType
	}
	t := format.Table{
		Title: title,
		Header: []string{"WORKER", "LEADER", "CONNECTORS", "TASKS", "CONFIG OFFSET",
			"MEMBER", "CLIENT HOST", "VERSION", "CONNECTOR NAMES", "TASK NAMES", "ASSIGNED", "REVOKED", "DELAY"},
		Rows: [][]string{},
		Wide: []int{5, 6, 7, 8, 9, 10, 11, 12},
		Drop: []int{1, 2}, // LEADER (the title names it), CONNECTORS
	}
	var footer []string
	if r.Note != nil {
		footer = append(footer, "note: "+*r.Note)
	}
	members := slices.Clone(r.Members)
	slices.SortStableFunc(members, func(a, b MemberView) int {
		switch {
		case format.NaturalLess(a.Worker, b.Worker):
			return -1
		case format.NaturalLess(b.Worker, a.Worker):
			return 1
		}
		return 0
	})
	for _, m := range members {
		row := []string{m.Worker, "-", "?", "?", "?", m.MemberID, cell(strings.TrimPrefix(m.ClientHost, "/")), "?", "?", "?", "?", "?", "?"}
		if r.Leader != nil && *r.Leader == m.MemberID {
			row[1] = "leader"
		}
		if m.ConfigOffset != nil {
			row[4] = strconv.FormatInt(*m.ConfigOffset, 10)
			if m.ConfigBehind != nil && *m.ConfigBehind {
				row[4] += fmt.Sprintf(" (behind %d)", *m.ConfigLag)
				footer = append(footer, fmt.Sprintf("behind: %s joined at config offset %d of %d, before config changes that rebalance the group: a rebalance is pending, or it is still catching up or cannot read the topic (worker.sync.timeout.ms)", m.Worker, *m.ConfigOffset, *r.ConfigEndOffset))
			}
		}
		if m.Version != nil {
			row[7] = strconv.Itoa(int(*m.Version))
		}
		if m.Owned != nil {
			row[2] = strconv.Itoa(len(m.Owned.Connectors))
			row[3] = strconv.Itoa(len(m.Owned.Tasks))
			row[8] = joinOr(m.Owned.Connectors)
			row[9] = joinOr(m.Owned.Tasks)
		}
		if a := m.Assignment; a != nil {
			row[10] = countText(a.Connectors, a.Tasks)
			row[11] = countText(a.RevokedConnectors, a.RevokedTasks)
			row[12] = format.Millis(a.DelayMs)
			if a.Error != 0 {
				row[10] += fmt.Sprintf(" (error %d)", a.Error)
			}
		}
		t.Rows = append(t.Rows, row)
		if m.Problem != nil {
			footer = append(footer, fmt.Sprintf("problem: %s: %s", m.Worker, *m.Problem))
		}
		for _, w := range m.Warnings {
			footer = append(footer, fmt.Sprintf("warning: %s: %s", m.Worker, w))
		}
	}
	t.Footer = footer
	return []format.Table{t}
}

// Items gives one JSON line per member with -o jsonl.
func (r MembersResult) Items() []any { return format.Items(r.Members) }

// leaderWorker is the leader's HOST:PORT when it is a member, else its id.
func (r MembersResult) leaderWorker() string {
	if r.Leader == nil {
		return ""
	}
	for _, m := range r.Members {
		if m.MemberID == *r.Leader {
			return m.Worker
		}
	}
	return *r.Leader
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
