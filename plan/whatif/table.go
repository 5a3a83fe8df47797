package whatif

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Tables renders a plan for people, summary first: one block per branch
// with both protocols side by side and each worker's final count, the
// gates, and a line saying where the rest is. -o wide adds, per branch and
// protocol, the events, the rounds and the work not running, and the
// settings assumed; --explain (Explain) adds the time model's rules.
func (r *PlanResult) Tables() []format.Table {
	out := []format.Table{}
	for _, b := range r.Branches {
		notes := r.Notes
		if len(out) > 0 {
			notes = nil // said once, under the first branch
		}
		out = append(out, summaryTable(b, r.Assumptions, r.label, notes))
	}
	out = append(out, r.gatesTable()...)
	for _, b := range r.Branches {
		if b.Cooperative != nil {
			// The events are the same under both protocols.
			out = append(out, wideOnly(eventsTable(b.Name, b.Cooperative)))
		}
		for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
			if tl != nil {
				out = append(out, wideOnly(roundsTable(b.Name, tl, r.label)), wideOnly(outagesTable(b.Name, tl, r.label)))
			}
		}
	}
	a := assumptionsTable(r)
	a.WideOnly = !r.Explain
	return append(out, a)
}

func wideOnly(t format.Table) format.Table {
	t.WideOnly = true
	return t
}

func eventsTable(branch string, tl *timeline.Timeline) format.Table {
	t := format.Table{Title: fmt.Sprintf("%s (%s): events", branch, tl.Protocol), Header: []string{"TIME", "EVENT"}, Rows: [][]string{}}
	for _, e := range tl.Events {
		t.Rows = append(t.Rows, []string{"t+" + Millis(e.TimeMs), e.Event})
	}
	return t
}

// label is a member's short name (its id when none is known).
func (r *PlanResult) label(member string) string {
	if l, ok := r.Labels[member]; ok && l != "" {
		return l
	}
	return member
}

func roundsTable(branch string, tl *timeline.Timeline, label func(string) string) format.Table {
	t := format.Table{
		Title:  fmt.Sprintf("%s (%s): rounds (connectors/tasks)", branch, tl.Protocol),
		Header: []string{"ROUND", "TIME", "WORKER", "KEEPS C/T", "REVOKED C/T", "ASSIGNED C/T", "DELAY", "OWNS C/T", "REVOKED PIECES", "ASSIGNED PIECES"},
		Rows:   [][]string{},
		Wide:   []int{8, 9},
	}
	for _, rd := range tl.Rounds {
		for i, w := range rd.Workers {
			round, when := "", ""
			if i == 0 {
				round = fmt.Sprintf("%d (gen %d)", rd.Round, rd.Generation)
				when = fmt.Sprintf("t+%s..%s", Millis(rd.TimeMs), Millis(rd.EndMs))
			}
			t.Rows = append(t.Rows, []string{
				round, when, label(w.Worker),
				cnt(w.KeepsConnectors, w.KeepsTasks),
				cnt(len(w.RevokedConnectors), len(w.RevokedTasks)),
				cnt(len(w.AssignedConnectors), len(w.AssignedTasks)),
				delayText(w.DelayMs),
				cnt(w.Connectors, w.Tasks),
				strings.Join(append(append([]string{}, w.RevokedConnectors...), w.RevokedTasks...), " "),
				strings.Join(append(append([]string{}, w.AssignedConnectors...), w.AssignedTasks...), " "),
			})
		}
	}
	return t
}

// outagesTable groups the pieces that stopped by the worker that ran them at
// the start and by when they were not running.
func outagesTable(branch string, tl *timeline.Timeline, label func(string) string) format.Table {
	type group struct {
		host, when   string
		conns, tasks int
		examples     []string
	}
	groups := []*group{}
	index := map[string]*group{}
	for _, o := range tl.Outages {
		host := "(new)"
		if o.Host != nil {
			host = label(*o.Host)
		}
		spans := []string{}
		for _, iv := range o.Intervals {
			spans = append(spans, fmt.Sprintf("t+%s..%s", Millis(iv.FromMs), Millis(iv.ToMs)))
		}
		when := strings.Join(spans, ", ")
		g := index[host+"\x00"+when]
		if g == nil {
			g = &group{host: host, when: when}
			index[host+"\x00"+when] = g
			groups = append(groups, g)
		}
		if o.Kind == "connector" {
			g.conns++
		} else {
			g.tasks++
		}
		g.examples = append(g.examples, o.Piece)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i].host != groups[j].host {
			return groups[i].host < groups[j].host
		}
		return groups[i].when < groups[j].when
	})
	t := format.Table{
		Title:  fmt.Sprintf("%s (%s): work not running (connectors/tasks)", branch, tl.Protocol),
		Header: []string{"RAN ON", "PIECES", "NOT RUNNING", "PIECE NAMES"},
		Rows:   [][]string{},
		Wide:   []int{3},
	}
	for _, g := range groups {
		t.Rows = append(t.Rows, []string{g.host, cnt(g.conns, g.tasks), g.when, strings.Join(g.examples, " ")})
	}
	return t
}

// summaryTable is a branch's outcome under each protocol, side by side,
// and each worker's connectors/tasks at the end.
func summaryTable(b Branch, a Assumptions, label func(string) string, notes []string) format.Table {
	tls := []*timeline.Timeline{}
	header := []string{""}
	for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
		if tl != nil {
			tls = append(tls, tl)
			header = append(header, strings.ToUpper(tl.Protocol))
		}
	}
	row := func(name string, f func(s timeline.Summary) string) []string {
		out := []string{name}
		for _, tl := range tls {
			out = append(out, f(tl.Summary))
		}
		return out
	}
	rows := [][]string{
		row("rounds", func(s timeline.Summary) string { return strconv.Itoa(s.Rounds) }),
		row("connectors/tasks stopped", func(s timeline.Summary) string { return cnt(s.ConnectorsStopped, s.TasksStopped) }),
		row("connectors/tasks moved", func(s timeline.Summary) string { return cnt(s.ConnectorsMoved, s.TasksMoved) }),
		row("task-seconds not running", func(s timeline.Summary) string { return seconds(s.TaskMsNotRunning) }),
		row("connector-seconds not running", func(s timeline.Summary) string { return seconds(s.ConnectorMsNotRunning) }),
		row("longest task outage", func(s timeline.Summary) string { return Millis(s.LongestTaskOutageMs) }),
		row("all work running again at", func(s timeline.Summary) string { return OptTime(s.AllRunningAfterMs, "never (see not running at end)") }),
		row("balanced at", func(s timeline.Summary) string { return OptTime(s.BalancedAfterMs, "not balanced at the end") }),
	}
	// Each worker's final count, one row each, in the order of the first
	// protocol's final list.
	var workers []string
	listed := map[string]bool{}
	final := make([]map[string]string, len(tls))
	for i, tl := range tls {
		final[i] = map[string]string{}
		for _, w := range tl.Summary.Final {
			name := label(w.Worker)
			if !listed[name] {
				listed[name] = true
				workers = append(workers, name)
			}
			final[i][name] = cnt(w.Connectors, w.Tasks)
		}
	}
	for _, w := range workers {
		cells := []string{"final " + w}
		for i := range tls {
			cells = append(cells, format.TextOr(ptrTo(final[i][w]), "-"))
		}
		rows = append(rows, cells)
	}
	for i, tl := range tls {
		for _, n := range tl.Notes {
			cells := make([]string, len(header))
			cells[0] = "note"
			cells[i+1] = n
			rows = append(rows, cells)
		}
	}
	footer := []string{assumptionLine(a, label)}
	for _, n := range notes {
		footer = append(footer, "note: "+n)
	}
	footer = append(footer, "(events, rounds and the work not running: -o wide; the time model: --explain)")
	return format.Table{Title: b.Name + ": summary (connectors/tasks)", Header: header, Rows: rows, Footer: footer, Wrap: []int{1, 2}}
}

func ptrTo(s string) *string { return &s }

// assumptionLine is the one-line form of the assumptions under each summary.
func assumptionLine(a Assumptions, label func(string) string) string {
	out := fmt.Sprintf("assumptions: round time %s, session timeout %s, max delay %s", Millis(a.RoundTimeMs), Millis(a.SessionTimeoutMs), Millis(a.MaxDelayMs))
	if a.RestartTimeMs != nil {
		out += ", " + restartText(a, *a.RestartTimeMs)
	}
	if a.Stop != nil {
		out += ", " + string(*a.Stop) + " stops"
	}
	return out + fmt.Sprintf(", Kafka %s, JDK %d, leader %s", a.KafkaVersion, a.JDK, label(a.Leader))
}

// assumptionsTable lists the settings and the rules of the time model.
func assumptionsTable(r *PlanResult) format.Table {
	a := r.Assumptions
	rows := [][]string{
		{"source", r.Source},
		{"group protocol", r.Protocol},
		{"round time", Millis(a.RoundTimeMs)},
		{"session timeout", Millis(a.SessionTimeoutMs)},
		{"max delay", Millis(a.MaxDelayMs)},
	}
	if a.RestartTimeMs != nil {
		rows = append(rows, []string{"restart time", restartText(a, *a.RestartTimeMs)})
	}
	for _, s := range a.Settings {
		if s.Setting == timeline.SettingRestartTime && s.Worker != "" {
			ms, _ := strconv.ParseInt(s.Value, 10, 64)
			rows = append(rows, []string{"restart time of " + s.Worker, Millis(ms) + " (" + s.Source + ")"})
		}
	}
	if a.ReturnsAfterMs != nil {
		rows = append(rows, []string{"returns after", Millis(*a.ReturnsAfterMs)})
	}
	if a.Stop != nil {
		rows = append(rows, []string{"stop", string(*a.Stop)})
	}
	rows = append(rows, []string{"kafka version", a.KafkaVersion}, []string{"jdk", strconv.Itoa(a.JDK)}, []string{"leader", r.label(a.Leader)})
	if r.Explain {
		for _, m := range a.Model {
			rows = append(rows, []string{"model", m})
		}
	}
	for _, n := range r.Notes {
		rows = append(rows, []string{"note", n})
	}
	return format.Table{Title: "assumptions", Header: []string{"SETTING", "VALUE"}, Rows: rows, Wrap: []int{1}}
}

func cnt(c, t int) string { return fmt.Sprintf("%d/%d", c, t) }

func delayText(ms int64) string {
	if ms == 0 {
		return "-"
	}
	return Millis(ms)
}

func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)
}

func OptTime(ms *int64, none string) string {
	if ms == nil {
		return none
	}
	return "t+" + Millis(*ms)
}
