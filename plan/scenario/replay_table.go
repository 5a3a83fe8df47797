package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/assignor"
)

// Tables shows one table per round (worker, what it was sent, what it owns
// after) and a final ownership table, with the column names of the what-if
// plans' rounds. The piece names only with -o wide.
func (r *ReplayResult) Tables() []format.Table {
	header := []string{"WORKER", "REVOKED C/T", "ASSIGNED C/T", "DELAY", "OWNS C/T",
		"OWNED PIECES", "REVOKED PIECES", "ASSIGNED PIECES"}
	wide := []int{5, 6, 7}
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
				countPair(len(w.RevokedConnectors), len(w.RevokedTasks)),
				countPair(len(w.AssignedConnectors), len(w.AssignedTasks)),
				fmtMs(w.DelayMs),
				counts(len(w.Connectors), len(w.Tasks)),
				joinPieces(w.Connectors, w.Tasks),
				joinPieces(w.RevokedConnectors, w.RevokedTasks),
				joinPieces(w.AssignedConnectors, w.AssignedTasks),
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
		Header: []string{"WORKER", "OWNS C/T", "OWNED PIECES"},
		Wide:   []int{2},
	}
	for _, id := range sortedMapKeys(r.Final) {
		o := r.Final[id]
		final.Rows = append(final.Rows, []string{id, counts(len(o.Connectors), len(o.Tasks)), joinPieces(o.Connectors, o.Tasks)})
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

// fmtMs is the one duration style of tables.
func fmtMs(ms int64) string { return format.Millis(ms) }

// counts renders connectors/tasks as the what-if tables do.
func counts(c, t int) string { return fmt.Sprintf("%d/%d", c, t) }
