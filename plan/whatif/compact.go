package whatif

import (
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// FormCompact is the form field of the compact JSON form.
const FormCompact = "compact"

// CompactPlanResult is a what-if plan in the compact JSON form (--compact):
// the same plan, each round listing only the workers it revoked from or
// assigned to, with its totals, and each piece's outages summed instead of
// listed. A roll of a thousand workers is thousands of rounds of a
// thousand workers each; the full form (PlanResult) lists them all,
// gigabytes of JSON. Its fields are PlanResult's, plus form, with the
// timelines in their compact shape (timeline.CompactTimeline).
type CompactPlanResult struct {
	Form string `json:"form"` // "compact"
	Head
	Branches []CompactBranch `json:"branches"`
	Notes    []string        `json:"notes"`
	Gates    *GateReport     `json:"gates"`

	full *PlanResult
}

// CompactBranch is a Branch in the compact form.
type CompactBranch struct {
	Name        string                    `json:"name"`
	Cooperative *timeline.CompactTimeline `json:"cooperative"`
	Eager       *timeline.CompactTimeline `json:"eager"`
}

// Compact is the plan in the compact form. The plan is made with
// Options.Detail = DetailCompact, which keeps what this form shows (a full
// plan has no outage sums).
func (r *PlanResult) Compact() *CompactPlanResult {
	c := &CompactPlanResult{Form: FormCompact, Head: r.Head, Branches: []CompactBranch{}, Notes: r.Notes, Gates: r.Gates, full: r}
	for _, b := range r.Branches {
		c.Branches = append(c.Branches, CompactBranch{Name: b.Name, Cooperative: b.Cooperative.Compact(), Eager: b.Eager.Compact()})
	}
	return c
}

// Tables are the plan's tables: the compact form changes only the JSON.
func (c *CompactPlanResult) Tables() []format.Table { return c.full.Tables() }
