package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/assignor"
)

// Tables shows one table per round (worker, what it owns, what it was sent)
// and a final ownership table. Columns 6 and up (names) only with -o wide.
func (r *ReplayResult) Tables() []format.Table {
	header := []string{"WORKER", "CONNECTORS", "TASKS", "ASSIGNED C/T", "REVOKED C/T", "DELAY",
		"CONNECTOR NAMES", "TASK NAMES", "ASSIGNED NAMES", "REVOKED NAMES"}
	wide := []int{6, 7, 8, 9}
	tables := make([]format.Table, 0, len(r.Rounds)+1)
	for i := range r.Rounds {
		rd := &r.Rounds[i]
		t := format.Table{
			Title:  fmt.Sprintf("round %d (step %d, generation %d, t=%s)", i+1, rd.Step, rd.Generation, fmtMs(rd.TimeMs)),
			Header: header,
			Wide:   wide,
		}
		var ownC, ownT, asC, asT, rvC, rvT int
		var delay int64
		for _, id := range sortedMapKeys(rd.Workers) {
			w := rd.Workers[id]
			t.Rows = append(t.Rows, []string{
				id,
				strconv.Itoa(len(w.Connectors)),
				strconv.Itoa(len(w.Tasks)),
				countPair(len(w.AssignedConnectors), len(w.AssignedTasks)),
				countPair(len(w.RevokedConnectors), len(w.RevokedTasks)),
				fmtMs(w.DelayMs),
				strings.Join(w.Connectors, " "),
				joinTasks(w.Tasks),
				joinPieces(w.AssignedConnectors, w.AssignedTasks),
				joinPieces(w.RevokedConnectors, w.RevokedTasks),
			})
			ownC += len(w.Connectors)
			ownT += len(w.Tasks)
			asC += len(w.AssignedConnectors)
			asT += len(w.AssignedTasks)
			rvC += len(w.RevokedConnectors)
			rvT += len(w.RevokedTasks)
			delay = max(delay, w.DelayMs)
		}
		footer := fmt.Sprintf("%d workers; owned %d connectors, %d tasks; assigned %d/%d, revoked %d/%d (connectors/tasks)",
			len(rd.Workers), ownC, ownT, asC, asT, rvC, rvT)
		if i < len(r.totals) {
			tot := r.totals[i]
			footer += fmt.Sprintf("; configured %d connectors, %d tasks", tot.connectors, tot.tasks)
			if uc, ut := tot.connectors-ownC, tot.tasks-ownT; uc > 0 || ut > 0 {
				footer += fmt.Sprintf(" (%d/%d not running)", max(uc, 0), max(ut, 0))
			}
		}
		if delay > 0 {
			footer += "; members rejoin after the delay of " + fmtMs(delay)
		}
		t.Footer = []string{footer}
		tables = append(tables, t)
	}
	final := format.Table{
		Title:  "final ownership",
		Header: []string{"WORKER", "CONNECTORS", "TASKS", "CONNECTOR NAMES", "TASK NAMES"},
		Wide:   []int{3, 4},
	}
	for _, id := range sortedMapKeys(r.Final) {
		o := r.Final[id]
		final.Rows = append(final.Rows, []string{id, strconv.Itoa(len(o.Connectors)), strconv.Itoa(len(o.Tasks)),
			strings.Join(o.Connectors, " "), joinTasks(o.Tasks)})
	}
	if len(r.Rounds) == 0 {
		final.Footer = []string{"the scenario has no rebalance rounds"}
	}
	return append(tables, final)
}

// countPair renders connectors/tasks counts, "-" when both are zero.
func countPair(c, t int) string {
	if c == 0 && t == 0 {
		return "-"
	}
	return strconv.Itoa(c) + "/" + strconv.Itoa(t)
}

func joinTasks(ts []assignor.TaskID) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.String())
	}
	return b.String()
}

func joinPieces(cs []string, ts []assignor.TaskID) string {
	c, t := strings.Join(cs, " "), joinTasks(ts)
	if c != "" && t != "" {
		return c + " " + t
	}
	return c + t
}

// fmtMs renders a duration in ms compactly: 0, 40ms, 1.6s, 5m0s.
func fmtMs(ms int64) string {
	switch {
	case ms == 0:
		return "0"
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 60000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + "s"
	}
	m, s := ms/60000, float64(ms%60000)/1000
	return fmt.Sprintf("%dm%ss", m, strconv.FormatFloat(s, 'f', -1, 64))
}
