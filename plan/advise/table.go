package advise

import (
	"fmt"
	"strconv"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/whatif"
)

// Tables renders the advice: the front (and the current setting, when it is
// not on it), every setting with -o wide, then the recommendation.
func (r *AdviseResult) Tables() []format.Table {
	header := []string{"DELAY", "ORDER", "PACING", "STOP", "ROLL TASK-S", "ROLL LONGEST", "MOVED", "ROUNDS", "BALANCED AT", "CRASH OUTAGE", "MARK"}
	row := func(c Candidate) []string {
		return []string{
			whatif.Millis(c.DelayMs), orderText(c.Order), paceShort(c.Setting), string(c.Stop),
			rollSeconds(c.Roll), whatif.Millis(c.Roll.LongestTaskOutageMs), strconv.Itoa(c.Roll.TasksMoved), strconv.Itoa(c.Roll.Rounds),
			whatif.OptTime(c.Roll.BalancedAfterMs, "never"), crashText(c.Crash), marks(c),
		}
	}
	front := format.Table{Title: "Pareto front: no other setting has fewer roll task-seconds and a shorter crash outage", Header: header, Rows: [][]string{}}
	curve := format.Table{Title: "per delay: the cheapest roll whose figures are certain (leader last) and the crash outage (every setting: -o json or jsonl)", Header: header, Rows: [][]string{}}
	for _, c := range r.Candidates {
		if c.OnFront || c.IsCurrent || c.Recommended {
			front.Rows = append(front.Rows, row(c))
		}
	}
	for _, i := range r.CheapestPerDelay() {
		curve.Rows = append(curve.Rows, row(r.Candidates[i]))
	}
	front.Footer = []string{
		"MARK: front = on the Pareto front, current = the cluster's setting as rolled today, recommended = the advisor's pick, out = beyond --max-downtime/--max-moves",
		fmt.Sprintf("crash outage: %s crashes and does not return (session timeout + delay + rounds)", r.label(r.CrashWorker)),
	}
	out := []format.Table{front, curve}
	rec := format.Table{Title: "advice", Header: []string{"", ""}, Rows: [][]string{
		{"verdict", verdictText(r.Verdict)},
		{"why", r.Why},
		{"current", r.Current.String()},
	}}
	if r.Recommended != nil {
		rec.Rows = append(rec.Rows, []string{"recommended", r.Recommended.Setting.String()})
	}
	if r.Constraints.MaxDowntimeMs != nil {
		rec.Rows = append(rec.Rows, []string{"--max-downtime", whatif.Millis(*r.Constraints.MaxDowntimeMs)})
	}
	if r.Constraints.MaxMoves != nil {
		rec.Rows = append(rec.Rows, []string{"--max-moves", strconv.Itoa(*r.Constraints.MaxMoves)})
	}
	a := r.Assumptions
	rec.Rows = append(rec.Rows,
		[]string{"protocol", fmt.Sprintf("%s (simulated: %s)", r.Protocol, r.Simulated)},
		[]string{"restart time", whatif.Millis(derefMs(a.RestartTimeMs))},
		[]string{"round time", whatif.Millis(a.RoundTimeMs)},
		[]string{"session timeout", whatif.Millis(a.SessionTimeoutMs)},
		[]string{"kafka version", a.KafkaVersion},
	)
	for _, n := range r.Notes {
		rec.Rows = append(rec.Rows, []string{"note", n})
	}
	return append(out, rec)
}

// CheapestPerDelay lists, for each delay swept, the index of the candidate
// whose roll costs the fewest task-seconds (rolls that never settle last).
// Leader-first rolls count only for a delay swept with no other order:
// their figures rest on a guess of the next leader (the broker picks it),
// which the advice's notes say, so they do not headline the table.
func (r *AdviseResult) CheapestPerDelay() []int {
	out := []int{}
	for i, c := range r.Candidates {
		if c.Cut {
			continue // proven not the cheapest (AdviseOptions.ShownOnly)
		}
		n := len(out)
		if n > 0 && r.Candidates[out[n-1]].DelayMs == c.DelayMs {
			prev := r.Candidates[out[n-1]]
			if certain, prevCertain := c.Order != OrderLeaderFirst, prev.Order != OrderLeaderFirst; certain != prevCertain {
				if certain {
					out[n-1] = i
				}
			} else if cheaperRoll(c, prev) {
				out[n-1] = i
			}
			continue
		}
		out = append(out, i)
	}
	return out
}

func cheaperRoll(a, b Candidate) bool {
	if (a.Roll.NotRunningAtEnd == 0) != (b.Roll.NotRunningAtEnd == 0) {
		return a.Roll.NotRunningAtEnd == 0
	}
	return a.Roll.TaskMsNotRunning < b.Roll.TaskMsNotRunning
}

// Items are the candidates, one JSON line each with -o jsonl.
func (r *AdviseResult) Items() []any {
	out := make([]any, len(r.Candidates))
	for i := range r.Candidates {
		out[i] = r.Candidates[i]
	}
	return out
}

func (r *AdviseResult) label(member string) string {
	if l, ok := r.Labels[member]; ok && l != "" {
		return l
	}
	return member
}

func derefMs(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func paceShort(s Setting) string {
	if s.Pacing == whatif.PaceGap && s.GapMs != nil {
		return "gap " + whatif.Millis(*s.GapMs)
	}
	return string(s.Pacing)
}

func rollSeconds(c RollCost) string {
	if c.NotRunningAtEnd != 0 {
		return "never settles"
	}
	return whatif.TaskSeconds(c.TaskMsNotRunning)
}

func crashText(c CrashCost) string {
	if c.LongestTaskOutageMs == nil {
		return "never reassigned"
	}
	return whatif.Millis(*c.LongestTaskOutageMs)
}

func marks(c Candidate) string {
	out := ""
	add := func(s string) {
		if out != "" {
			out += ","
		}
		out += s
	}
	if c.OnFront {
		add("front")
	}
	if c.IsCurrent {
		add("current")
	}
	if c.Recommended {
		add("recommended")
	}
	if !c.Feasible {
		add("out")
	}
	return out
}

func verdictText(v string) string {
	switch v {
	case VerdictOnFront:
		return "the current setting is on the front (exit 0)"
	case VerdictBeaten:
		return "the recommended setting beats the current one on both costs (exit 1)"
	}
	return "the current setting is off the front, but nothing within the limits beats it on both costs (exit 0)"
}
