package watch

import (
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
