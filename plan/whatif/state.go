package whatif

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// StateResult is the whole state after one round of a plan (--state-after):
// every worker of the group with what it owns, under each protocol. The
// compact form lists only what each round changed (and nothing of eager
// rounds); this is how a script asks for every worker's holdings after a
// given round of a big roll without the full form's gigabytes. The plan is
// made with Options.StateAfterRound, which keeps that state.
type StateResult struct {
	Plan     string            `json:"plan"`
	Round    int               `json:"round"` // the round asked for
	Labels   map[string]string `json:"labels"`
	Branches []StateBranch     `json:"branches"`
}

// StateBranch is one branch's state after the round, per protocol.
type StateBranch struct {
	Name        string               `json:"name"`
	Cooperative *timeline.RoundState `json:"cooperative"`
	Eager       *timeline.RoundState `json:"eager"`
}

// StateAfter is the plan's state after round (as made with
// Options.StateAfterRound = round).
func (r *PlanResult) StateAfter(round int) *StateResult {
	s := &StateResult{Plan: r.Plan, Round: round, Labels: r.Labels, Branches: []StateBranch{}}
	for _, b := range r.Branches {
		sb := StateBranch{Name: b.Name}
		if b.Cooperative != nil {
			sb.Cooperative = b.Cooperative.StateAfter
		}
		if b.Eager != nil {
			sb.Eager = b.Eager.StateAfter
		}
		s.Branches = append(s.Branches, sb)
	}
	return s
}

// Tables list every worker's counts after the round, per branch and
// protocol (-o wide adds the pieces).
func (s *StateResult) Tables() []format.Table {
	out := []format.Table{}
	for _, b := range s.Branches {
		for _, st := range []*timeline.RoundState{b.Cooperative, b.Eager} {
			if st == nil {
				continue
			}
			t := format.Table{
				Title:  fmt.Sprintf("%s (%s): every worker after round %d (it ends at %s)", b.Name, st.Protocol, st.Round, Millis(st.EndMs)),
				Header: []string{"WORKER", "NAME", "CONNECTORS", "TASKS", "OWNED PIECES"},
				Wide:   []int{4},
			}
			if st.Round != s.Round {
				t.Footer = []string{fmt.Sprintf("the %s timeline has %d rounds, not %d: this is its end state", st.Protocol, st.Round, s.Round)}
			}
			for _, w := range st.Workers {
				label := w.Worker
				if l := s.Labels[w.Worker]; l != "" {
					label = l
				}
				t.Rows = append(t.Rows, []string{label, w.Name, strconv.Itoa(w.Connectors), strconv.Itoa(w.Tasks),
					strings.Join(append(slices.Clone(w.OwnedConnectors), w.OwnedTasks...), " ")})
			}
			out = append(out, t)
		}
	}
	return out
}
