package whatif

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Gates are a runbook's limits on a what-if plan: a plan that exceeds one
// fails the gate (the command exits 1, as check --fail-on does). A nil
// limit is no gate.
type Gates struct {
	MaxOutageMs    *int64 // --max-outage: the longest outage of one task
	MaxTaskSeconds *int64 // --max-task-seconds: task-seconds not running
	MaxMoves       *int   // --max-moves: tasks that end on another machine
	MaxRounds      *int   // --max-rounds: rebalance rounds
}

// Empty reports whether no gate is set.
func (g Gates) Empty() bool {
	return g.MaxOutageMs == nil && g.MaxTaskSeconds == nil && g.MaxMoves == nil && g.MaxRounds == nil
}

// GateReport is the gates of a plan and what broke them (JSON "gates",
// null when no gate was given).
type GateReport struct {
	MaxOutageMs    *int64   `json:"max_outage_ms"`
	MaxTaskSeconds *int64   `json:"max_task_seconds"`
	MaxMoves       *int     `json:"max_moves"`
	MaxRounds      *int     `json:"max_rounds"`
	Passed         bool     `json:"passed"`
	Breaches       []Breach `json:"breaches"`
}

// Breach is one figure of one branch beyond its gate.
type Breach struct {
	Gate     string `json:"gate"` // the flag without dashes: max-outage, max-task-seconds, max-moves, max-rounds
	Branch   string `json:"branch"`
	Protocol string `json:"protocol"`
	Figure   int64  `json:"figure"` // in the gate's unit: ms, task-seconds, tasks, rounds; -1 = work never runs again
	Limit    int64  `json:"limit"`
	Message  string `json:"message"` // one line: the figure that broke the gate
}

// Gate names, as the flags are called.
const (
	GateMaxOutage      = "max-outage"
	GateMaxTaskSeconds = "max-task-seconds"
	GateMaxMoves       = "max-moves"
	GateMaxRounds      = "max-rounds"
)

// ApplyGates measures every branch of the plan, under the protocol the
// group runs (eager when it runs eager, else the cooperative one), against
// the gates, records the outcome in r.Gates and returns the breaches.
func (r *PlanResult) ApplyGates(g Gates) []Breach {
	if g.Empty() {
		return nil
	}
	rep := &GateReport{MaxOutageMs: g.MaxOutageMs, MaxTaskSeconds: g.MaxTaskSeconds, MaxMoves: g.MaxMoves, MaxRounds: g.MaxRounds, Breaches: []Breach{}}
	for _, b := range r.Branches {
		tl := b.Cooperative
		if r.Protocol == "eager" || tl == nil {
			tl = b.Eager
		}
		if tl != nil {
			rep.Breaches = append(rep.Breaches, gateBreaches(g, b.Name, tl)...)
		}
	}
	rep.Passed = len(rep.Breaches) == 0
	r.Gates = rep
	return rep.Breaches
}

func gateBreaches(g Gates, branch string, tl *timeline.Timeline) []Breach {
	s := tl.Summary
	var out []Breach
	add := func(gate string, figure, limit int64, what, fig, lim string) {
		out = append(out, Breach{Gate: gate, Branch: branch, Protocol: tl.Protocol, Figure: figure, Limit: limit,
			Message: fmt.Sprintf("%s (%s): %s %s exceeds --%s %s", branch, tl.Protocol, what, fig, gate, lim)})
	}
	if g.MaxOutageMs != nil {
		switch {
		case len(s.NotRunningAtEnd) > 0:
			out = append(out, Breach{Gate: GateMaxOutage, Branch: branch, Protocol: tl.Protocol, Figure: -1, Limit: *g.MaxOutageMs,
				Message: fmt.Sprintf("%s (%s): %d pieces never run again within the plan (%s), beyond --%s %s",
					branch, tl.Protocol, len(s.NotRunningAtEnd), firstPieces(s.NotRunningAtEnd), GateMaxOutage, Millis(*g.MaxOutageMs))})
		case s.LongestTaskOutageMs > *g.MaxOutageMs:
			add(GateMaxOutage, s.LongestTaskOutageMs, *g.MaxOutageMs, "longest task outage", Millis(s.LongestTaskOutageMs), Millis(*g.MaxOutageMs))
		}
	}
	if g.MaxTaskSeconds != nil && s.TaskMsNotRunning > *g.MaxTaskSeconds*1000 {
		add(GateMaxTaskSeconds, (s.TaskMsNotRunning+999)/1000, *g.MaxTaskSeconds, "task-seconds not running", TaskSeconds(s.TaskMsNotRunning), strconv.FormatInt(*g.MaxTaskSeconds, 10))
	}
	if g.MaxMoves != nil && s.TasksMoved > *g.MaxMoves {
		add(GateMaxMoves, int64(s.TasksMoved), int64(*g.MaxMoves), "tasks moved to another machine", strconv.Itoa(s.TasksMoved), strconv.Itoa(*g.MaxMoves))
	}
	if g.MaxRounds != nil && s.Rounds > *g.MaxRounds {
		add(GateMaxRounds, int64(s.Rounds), int64(*g.MaxRounds), "rebalance rounds", strconv.Itoa(s.Rounds), strconv.Itoa(*g.MaxRounds))
	}
	return out
}

func firstPieces(list []string) string {
	if len(list) <= 3 {
		return fmt.Sprint(list)
	}
	return fmt.Sprintf("%v and %d more", list[:3], len(list)-3)
}

// gatesTable shows the gates and what broke them (none when no gate).
func (r *PlanResult) gatesTable() []format.Table {
	if r.Gates == nil {
		return nil
	}
	t := format.Table{Title: "gates", Header: []string{"GATE", "LIMIT", "RESULT"}, Rows: [][]string{}}
	row := func(gate, limit string) {
		result := "passed"
		for _, b := range r.Gates.Breaches {
			if b.Gate == gate {
				result = b.Message
				break
			}
		}
		t.Rows = append(t.Rows, []string{"--" + gate, limit, result})
	}
	if g := r.Gates; g.MaxOutageMs != nil {
		row(GateMaxOutage, Millis(*g.MaxOutageMs))
	}
	if g := r.Gates; g.MaxTaskSeconds != nil {
		row(GateMaxTaskSeconds, strconv.FormatInt(*g.MaxTaskSeconds, 10))
	}
	if g := r.Gates; g.MaxMoves != nil {
		row(GateMaxMoves, strconv.Itoa(*g.MaxMoves))
	}
	if g := r.Gates; g.MaxRounds != nil {
		row(GateMaxRounds, strconv.Itoa(*g.MaxRounds))
	}
	return []format.Table{t}
}

// TaskSeconds renders task-ms as whole task-seconds with thousands separators.
func TaskSeconds(ms int64) string {
	s := fmt.Sprintf("%d", (ms+500)/1000)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[0] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
