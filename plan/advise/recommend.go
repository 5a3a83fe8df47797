package advise

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/plan/whatif"
)

// The recommendation: which candidates beat which, which meet the
// constraints, and the one advised, with why in words.

// costs returns the two costs compared, with ok false for a setting whose
// roll or failover never brings all work back (worse than any other).
func (c Candidate) costs() (roll, crash int64, ok bool) {
	if c.Roll.NotRunningAtEnd != 0 || c.Crash.LongestTaskOutageMs == nil {
		return 0, 0, false
	}
	return c.Roll.TaskMsNotRunning, *c.Crash.LongestTaskOutageMs, true
}

// beats reports that a is at least as good as b on both costs and better on one.
func beats(a, b Candidate) bool {
	ar, ac, aok := a.costs()
	br, bc, bok := b.costs()
	if !aok {
		return false
	}
	if !bok {
		return true
	}
	return ar <= br && ac <= bc && (ar < br || ac < bc)
}

// decide marks the front, the feasible settings, the recommendation and the verdict.
func decide(res *AdviseResult, ao AdviseOptions) {
	cs := res.Candidates
	for i := range cs {
		cs[i].OnFront = !cs[i].Cut
		for j := range cs {
			// A cut roll is beaten by a finished one that then beats
			// whatever it beats: leaving it out changes no mark.
			if i != j && !cs[j].Cut && beats(cs[j], cs[i]) {
				cs[i].OnFront = false
				break
			}
		}
		if _, _, ok := cs[i].costs(); !ok {
			cs[i].OnFront = false
		}
		cs[i].Feasible = !cs[i].Cut && feasible(cs[i], ao)
	}
	current := -1
	for i := range cs {
		if cs[i].IsCurrent {
			current = i
		}
	}
	best := -1
	for i := range cs {
		if !cs[i].Feasible {
			continue
		}
		if best < 0 || better(cs[i], cs[best], res.Current) {
			best = i
		}
	}
	res.Verdict = VerdictOff
	if current >= 0 && cs[current].OnFront {
		res.Verdict = VerdictOnFront
	}
	if best < 0 {
		res.Why = "no setting swept meets " + constraintText(res.Constraints) + "; relax a limit or sweep other delays (--delays)"
		return
	}
	cs[best].Recommended = true
	rec := cs[best]
	res.Recommended = &rec
	cur := cs[current]
	if res.Verdict != VerdictOnFront && beats(rec, cur) {
		res.Verdict = VerdictBeaten
	}
	res.Why = whyText(rec, cur, res)
}

func feasible(c Candidate, ao AdviseOptions) bool {
	_, crash, ok := c.costs()
	if !ok {
		return false
	}
	if ao.MaxDowntimeMs > 0 && crash > ao.MaxDowntimeMs {
		return false
	}
	if ao.MaxMoves >= 0 && c.Roll.TasksMoved > ao.MaxMoves {
		return false
	}
	return true
}

// better orders feasible settings: fewest roll task-seconds, then the
// shorter crash outage, fewer moves, fewer rounds, then the one closest to
// the current way of rolling (same order, pacing, stop, nearest delay).
func better(a, b Candidate, cur Setting) bool {
	ar, ac, _ := a.costs()
	br, bc, _ := b.costs()
	if ar != br {
		return ar < br
	}
	if ac != bc {
		return ac < bc
	}
	if a.Roll.TasksMoved != b.Roll.TasksMoved {
		return a.Roll.TasksMoved < b.Roll.TasksMoved
	}
	if a.Roll.Rounds != b.Roll.Rounds {
		return a.Roll.Rounds < b.Roll.Rounds
	}
	like := func(s Setting) int {
		n := 0
		if s.Order == cur.Order {
			n++
		}
		if s.Pacing == cur.Pacing {
			n++
		}
		if s.Stop == cur.Stop {
			n++
		}
		return n
	}
	if la, lb := like(a.Setting), like(b.Setting); la != lb {
		return la > lb
	}
	return absDiff(a.DelayMs, cur.DelayMs) < absDiff(b.DelayMs, cur.DelayMs)
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

func constraintText(c Constraints) string {
	parts := []string{}
	if c.MaxDowntimeMs != nil {
		parts = append(parts, "--max-downtime "+whatif.Millis(*c.MaxDowntimeMs))
	}
	if c.MaxMoves != nil {
		parts = append(parts, fmt.Sprintf("--max-moves %d", *c.MaxMoves))
	}
	if len(parts) == 0 {
		return "the constraints (every roll or failover leaves work down)"
	}
	return strings.Join(parts, " and ")
}

func whyText(rec, cur Candidate, res *AdviseResult) string {
	figures := fmt.Sprintf("the roll costs %s task-s (current %s) and a crash of %s leaves a task down at most %s (current %s)",
		whatif.TaskSeconds(rec.Roll.TaskMsNotRunning), whatif.TaskSeconds(cur.Roll.TaskMsNotRunning), res.Labels[res.CrashWorker],
		outageText(rec.Crash.LongestTaskOutageMs), outageText(cur.Crash.LongestTaskOutageMs))
	scope := "the fewest roll task-seconds of every setting swept"
	if res.Constraints.MaxDowntimeMs != nil || res.Constraints.MaxMoves != nil {
		scope = "the fewest roll task-seconds within " + constraintText(res.Constraints)
	}
	switch {
	case rec.IsCurrent:
		return fmt.Sprintf("Keep %s: it has %s; %s.", rec.Setting, scope, figures)
	case beats(rec, cur):
		return fmt.Sprintf("Use %s: it beats the current setting on both costs and has %s; %s, with %d tasks moved (current %d).", rec.Setting, scope, figures, rec.Roll.TasksMoved, cur.Roll.TasksMoved)
	}
	return fmt.Sprintf("Use %s: it has %s; %s, with %d tasks moved (current %d).", rec.Setting, scope, figures, rec.Roll.TasksMoved, cur.Roll.TasksMoved)
}

func outageText(ms *int64) string {
	if ms == nil {
		return "forever (lost work is never reassigned)"
	}
	return whatif.Millis(*ms)
}
