package watch

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
)

// Text is the summary as watch prints it at the end, in lines: the
// rebalances and their durations, the task time not RUNNING with each task
// (paused tasks apart: pausing is on purpose), the connectors held.
func (s Summary) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "summary: watched %s, %d events, %d rebalances", format.Millis(s.DurationMs), s.Events, s.RebalanceCount)
	var ds []string
	for _, r := range s.Rebalances {
		switch {
		case r.DurationMs != nil:
			ds = append(ds, format.Millis(*r.DurationMs))
		case r.CompletedAtMs == nil:
			ds = append(ds, "still running")
		default:
			ds = append(ds, "start unseen")
		}
	}
	if len(ds) > 0 {
		fmt.Fprintf(&b, " (%s; total %s)", strings.Join(ds, ", "), format.Millis(s.RebalanceTotalMs))
	}
	fmt.Fprintf(&b, "\ntask time not RUNNING (held by the scheduled delay included, PAUSED left out): %s", format.Millis(s.TaskNotRunningMs))
	for _, t := range s.TasksNotRunning {
		var states []string
		for _, st := range slices.Sorted(maps.Keys(t.ByStateMs)) {
			states = append(states, fmt.Sprintf("%s %s", st, format.Millis(t.ByStateMs[st])))
		}
		fmt.Fprintf(&b, "\n  %s: %s (%s)", format.EscapeLine(t.Task), format.Millis(t.NotRunningMs), strings.Join(states, ", "))
	}
	if s.TaskPausedMs > 0 {
		fmt.Fprintf(&b, "\ntask time PAUSED (on purpose): %s", format.Millis(s.TaskPausedMs))
	}
	if len(s.ConnectorsHeld) > 0 {
		b.WriteString("\nconnectors held (owned by no worker):")
		for _, c := range s.ConnectorsHeld {
			fmt.Fprintf(&b, "\n  %s: %s", format.EscapeLine(c.Connector), format.Millis(c.HeldMs))
		}
	}
	switch {
	case s.Unanswered:
		fmt.Fprintf(&b, "\ngroup at the end: unknown: the cluster has not answered since %s UTC", time.UnixMilli(s.LastAnswerMs).UTC().Format("15:04:05"))
		if s.GroupStateAtEnd != "" {
			fmt.Fprintf(&b, " (then: %s, %s)", format.EscapeLine(s.GroupStateAtEnd), format.Count(s.MembersAtEnd, "member", "members"))
		}
	case s.GroupStateAtEnd != "":
		fmt.Fprintf(&b, "\ngroup at the end: %s, %s", format.EscapeLine(s.GroupStateAtEnd), format.Count(s.MembersAtEnd, "member", "members"))
	}
	return b.String()
}

// Summary sums up the watch at now; it may be called more than once.
func (w *Watcher) Summary(now int64) Summary {
	s := Summary{Type: "summary", StartedAtMs: w.started, EndedAtMs: now, DurationMs: now - w.started,
		Events: w.events, Rebalances: append([]Rebalance{}, w.done...), TasksNotRunning: []TaskDowntime{}}
	if w.pending != nil { // still rebalancing at the end
		s.Rebalances = append(s.Rebalances, *w.pending)
	}
	s.RebalanceCount = len(s.Rebalances)
	for _, r := range w.done {
		if r.DurationMs != nil {
			s.RebalanceTotalMs += *r.DurationMs
		}
	}
	totals := map[string]*TaskDowntime{}
	for id, d := range w.down {
		c := &TaskDowntime{Task: id, NotRunningMs: d.NotRunningMs, ByStateMs: maps.Clone(d.ByStateMs)}
		totals[id] = c
	}
	for _, ms := range w.paused {
		s.TaskPausedMs += ms
	}
	// addOpen counts a stretch still open at the end under state.
	addOpen := func(id string, since int64, state string) {
		if state == "PAUSED" {
			s.TaskPausedMs += max(0, now-since)
			return
		}
		c := totals[id]
		if c == nil {
			c = &TaskDowntime{Task: id, ByStateMs: map[string]int64{}}
			totals[id] = c
		}
		if ms := now - since; ms > 0 {
			c.NotRunningMs += ms
			c.ByStateMs[state] += ms
		}
	}
	for id, since := range w.downFrom { // still down at the end
		addOpen(id, since, w.tasks[id].State)
	}
	for id, since := range w.heldDown { // still held at the end
		addOpen(id, since, "HELD")
	}
	for _, d := range totals {
		if d.NotRunningMs > 0 {
			s.TasksNotRunning = append(s.TasksNotRunning, *d)
			s.TaskNotRunningMs += d.NotRunningMs
		}
	}
	slices.SortFunc(s.TasksNotRunning, func(a, b TaskDowntime) int { return compareTaskIDStrings(a.Task, b.Task) })
	held := maps.Clone(w.connHeld)
	for piece, since := range w.held { // still held at the end
		if name, ok := strings.CutPrefix(piece, "connector "); ok {
			held[name] += now - since
		}
	}
	s.ConnectorsHeld = []HeldConnector{}
	for _, name := range slices.Sorted(maps.Keys(held)) {
		if held[name] > 0 {
			s.ConnectorsHeld = append(s.ConnectorsHeld, HeldConnector{Connector: name, HeldMs: held[name]})
		}
	}
	if w.group != nil {
		s.GroupStateAtEnd, s.MembersAtEnd = w.group.State, len(w.group.Members)
	}
	return s
}

// compareTaskIDStrings orders CONNECTOR-N ids by connector, then number.
func compareTaskIDStrings(a, b string) int {
	ca, na := splitTaskID(a)
	cb, nb := splitTaskID(b)
	return cmp.Or(cmp.Compare(ca, cb), cmp.Compare(na, nb), cmp.Compare(a, b))
}

func splitTaskID(id string) (string, int) {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return id, 0
	}
	n := 0
	for _, r := range id[i+1:] {
		if r < '0' || r > '9' {
			return id, 0
		}
		n = n*10 + int(r-'0')
	}
	return id[:i], n
}
