package whatif

import (
	"reflect"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// detailPlans are plans whose rounds revoke, assign, crash, bring workers
// back and renumber pieces, under both protocol families.
func detailPlans(t *testing.T, detail timeline.Detail, noPlot bool) []*PlanResult {
	t.Helper()
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 12, Connectors: 40, Tasks: 3, Skew: 0.3})
	opts := testOpts(60000)
	opts.Detail, opts.NoPlot = detail, noPlot
	var out []*PlanResult
	add := func(r *PlanResult, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	add(RollingRestartPlan(st, opts, 90000, StopClean, nil))
	add(RollingRestartPlan(st, opts, 20000, StopCrash, nil))
	back := int64(30000)
	add(LeaveWorkersPlan(st, opts, LeaveOptions{Workers: []string{"w2", "w5"}, Stop: StopCrash, ReturnsAfterMs: &back}))
	add(JoinPlan(st, opts, []string{"w13", "w14"}))
	add(ConnectorPlan(st, opts, ConnectorChange{Set: map[string]int{"conn-01": 9}, Add: map[string]int{"a-new": 4}, Remove: []string{"conn-02"}}))
	add(ScalePlan(st, opts, ScaleOptions{To: 9}))
	add(ScalePlan(st, opts, ScaleOptions{To: 15}))
	// fewer pieces than workers squared: two eager deals share a card at most
	add(RollingRestartPlan(cluster.SyntheticState(cluster.SyntheticSpec{Workers: 12, Connectors: 30, Tasks: 1}), opts, 90000, StopClean, nil))
	// the calibrated clock (heartbeat known): eager rounds of the stop
	// and start by pieces
	hb := opts
	hb.HeartbeatIntervalMs = 3000
	add(RollingRestartPlan(st, hb, 20000, StopClean, nil))
	add(JoinPlan(st, hb, []string{"w13", "w14"}))
	add(ScalePlan(st, hb, ScaleOptions{To: 9}))
	opts.RoundTimeMs = 0
	add(RollingRestartPlan(st, opts, 5000, StopClean, nil))
	return out
}

// TestDetailsKeepTheSummary holds the summary and the compact plans to the
// full one: the same summaries, events and gates; compact rounds are the
// full rounds' rows of the workers told something (none under eager) with
// totals that add the full rows up; the outage sums add the full
// intervals up. They are held both with the pictures' running series and
// without (as the commands run them without --plot, when eager rounds are
// dealt as places: timeline/eagerdeal.go).
func TestDetailsKeepTheSummary(t *testing.T) {
	full := detailPlans(t, timeline.DetailFull, false)
	for _, run := range []struct {
		d      timeline.Detail
		noPlot bool
	}{{timeline.DetailSummary, false}, {timeline.DetailCompact, false}, {timeline.DetailSummary, true}, {timeline.DetailCompact, true}} {
		d := run.d
		for i, got := range detailPlans(t, d, run.noPlot) {
			want := full[i]
			for b := range want.Branches {
				for _, pair := range [][2]*timeline.Timeline{
					{want.Branches[b].Cooperative, got.Branches[b].Cooperative},
					{want.Branches[b].Eager, got.Branches[b].Eager},
				} {
					w, g := pair[0], pair[1]
					if !reflect.DeepEqual(w.Summary, g.Summary) || !reflect.DeepEqual(w.Events, g.Events) || (!run.noPlot && !reflect.DeepEqual(w.Running, g.Running)) {
						t.Fatalf("detail %d, plan %d (%s), %s: the summary, events or running series differ from the full plan's", d, i, want.Plan, w.Protocol)
					}
					if d == timeline.DetailCompact {
						checkCompact(t, w, g.Compact())
					}
				}
			}
		}
	}
}

func checkCompact(t *testing.T, full *timeline.Timeline, c *timeline.CompactTimeline) {
	t.Helper()
	if len(c.Rounds) != len(full.Rounds) {
		t.Fatalf("%s: %d compact rounds, %d full", full.Protocol, len(c.Rounds), len(full.Rounds))
	}
	for r, fr := range full.Rounds {
		var rows []timeline.WorkerRoundView
		var tot timeline.RoundTotals
		for _, w := range fr.Workers {
			n := len(w.RevokedConnectors) + len(w.RevokedTasks) + len(w.AssignedConnectors) + len(w.AssignedTasks)
			if n == 0 {
				continue
			}
			if full.Protocol != "eager" {
				rows = append(rows, w)
			}
			tot.Workers++
			tot.RevokedConnectors += len(w.RevokedConnectors)
			tot.RevokedTasks += len(w.RevokedTasks)
			tot.AssignedConnectors += len(w.AssignedConnectors)
			tot.AssignedTasks += len(w.AssignedTasks)
		}
		cr := c.Rounds[r]
		if cr.Totals != tot {
			t.Fatalf("%s round %d: totals %+v, the full rows add up to %+v", full.Protocol, r+1, cr.Totals, tot)
		}
		if len(rows) != len(cr.Workers) || (len(rows) > 0 && !reflect.DeepEqual(rows, cr.Workers)) {
			t.Fatalf("%s round %d: compact rows %+v, want the full rows of workers told something %+v", full.Protocol, r+1, cr.Workers, rows)
		}
		if cr.TimeMs != fr.TimeMs || cr.EndMs != fr.EndMs || cr.Trigger != fr.Trigger || cr.DelayMs != fr.DelayMs || cr.Generation != fr.Generation {
			t.Fatalf("%s round %d: compact %+v, full %+v", full.Protocol, r+1, cr, fr)
		}
	}
	if len(c.Outages) != len(full.Outages) {
		t.Fatalf("%s: %d outage sums, %d pieces with outages", full.Protocol, len(c.Outages), len(full.Outages))
	}
	for i, o := range full.Outages {
		s := c.Outages[i]
		longest := int64(0)
		for _, iv := range o.Intervals {
			longest = max(longest, iv.ToMs-iv.FromMs)
		}
		want := timeline.OutageSum{Piece: o.Piece, Kind: o.Kind, Host: o.Host, Name: o.Name, NotRunningMs: o.NotRunningMs,
			Outages: len(o.Intervals), LongestMs: longest, FirstFromMs: o.Intervals[0].FromMs, LastToMs: o.Intervals[len(o.Intervals)-1].ToMs}
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("%s: outage sum %+v, the intervals give %+v", full.Protocol, s, want)
		}
	}
}

// TestCompactPlanJSON: the compact form says so, keeps the plan's fields
// and lists no eager worker.
func TestCompactPlanJSON(t *testing.T) {
	res := detailPlans(t, timeline.DetailCompact, true)[0]
	c := res.Compact()
	if c.Form != FormCompact || c.Plan != res.Plan || !reflect.DeepEqual(c.Initial, res.Initial) || !reflect.DeepEqual(c.Labels, res.Labels) {
		t.Fatalf("compact form %+v does not carry the plan's fields", c)
	}
	told := 0
	for _, r := range c.Branches[0].Cooperative.Rounds {
		told += len(r.Workers)
	}
	for _, r := range c.Branches[0].Eager.Rounds {
		if len(r.Workers) != 0 {
			t.Fatalf("eager round %d lists %d workers in the compact form", r.Round, len(r.Workers))
		}
	}
	if told == 0 || !slices.ContainsFunc(c.Branches[0].Eager.Rounds, func(r timeline.CompactRound) bool { return r.Totals.Workers > 0 }) {
		t.Fatal("a rolling restart's compact rounds list no cooperative worker or count no eager change")
	}
}
