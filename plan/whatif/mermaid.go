package whatif

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
)

// ExtraFormats offers -o mermaid (format.Extra).
func (r *PlanResult) ExtraFormats() []string { return []string{"mermaid"} }

// WriteExtra prints the Mermaid diagram (format.Extra).
func (r *PlanResult) WriteExtra(w io.Writer, name string) error {
	if name != "mermaid" {
		return fmt.Errorf("plan results cannot be printed as %q", name)
	}
	if _, err := io.WriteString(w, r.Mermaid()); err != nil {
		return fmt.Errorf("writing the mermaid diagram: %w", err)
	}
	return nil
}

// Mermaid draws the plan as a Mermaid sequenceDiagram for a runbook: the
// timeline of the group's protocol (eager when the group runs eager,
// otherwise the cooperative one); several branches become alt/else blocks.
func (r *PlanResult) Mermaid() string {
	var b strings.Builder
	pick := func(br Branch) *timeline.Timeline {
		if r.Protocol == "eager" {
			return br.Eager
		}
		return br.Cooperative
	}
	proto := r.Protocol
	b.WriteString("sequenceDiagram\n")
	fmt.Fprintf(&b, "    title %s\n", mermaidText(fmt.Sprintf("connectscope plan %s: %s (%s)", r.Plan, r.Event, proto)))
	ids := map[string]string{}
	order := []string{}
	addPart := func(w string) {
		if _, ok := ids[w]; !ok {
			ids[w] = fmt.Sprintf("p%d", len(order)+1)
			order = append(order, w)
		}
	}
	for _, w := range r.Initial {
		addPart(w.Worker)
	}
	for _, br := range r.Branches {
		if tl := pick(br); tl != nil {
			for _, rd := range tl.Rounds {
				for _, w := range rd.Workers {
					addPart(w.Worker)
				}
			}
		}
	}
	b.WriteString("    participant L as leader (assignor)\n")
	for _, w := range order {
		fmt.Fprintf(&b, "    participant %s as %s\n", ids[w], mermaidText(r.label(w)))
	}
	span := "L"
	if len(order) > 0 {
		span = "L," + ids[order[len(order)-1]]
	}
	for i, br := range r.Branches {
		tl := pick(br)
		if tl == nil {
			continue
		}
		indent := "    "
		if len(r.Branches) > 1 {
			kw := "alt"
			if i > 0 {
				kw = "else"
			}
			fmt.Fprintf(&b, "    %s %s\n", kw, mermaidText(br.Name))
			indent = "        "
		}
		writeTimeline(&b, indent, tl, ids, span)
	}
	if len(r.Branches) > 1 {
		b.WriteString("    end\n")
	}
	return b.String()
}

// writeTimeline interleaves events and rounds by time (events first).
func writeTimeline(b *strings.Builder, indent string, tl *timeline.Timeline, ids map[string]string, span string) {
	type item struct {
		at    int64
		kind  int // 0 event, 1 round
		idx   int
		event timeline.EventView
		round timeline.RoundView
	}
	items := []item{}
	for i, e := range tl.Events {
		items = append(items, item{at: e.TimeMs, kind: 0, idx: i, event: e})
	}
	for i, rd := range tl.Rounds {
		items = append(items, item{at: rd.TimeMs, kind: 1, idx: i, round: rd})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].at != items[j].at {
			return items[i].at < items[j].at
		}
		if items[i].kind != items[j].kind {
			return items[i].kind < items[j].kind
		}
		return items[i].idx < items[j].idx
	})
	for _, it := range items {
		if it.kind == 0 {
			fmt.Fprintf(b, "%sNote over %s: %s\n", indent, span, mermaidText(fmt.Sprintf("t+%s %s", Millis(it.at), it.event.Event)))
			continue
		}
		rd := it.round
		fmt.Fprintf(b, "%sNote over %s: %s\n", indent, span, mermaidText(fmt.Sprintf("t+%s round %d (generation %d): %s", Millis(rd.TimeMs), rd.Round, rd.Generation, rd.Trigger)))
		quiet := 0
		for _, w := range rd.Workers {
			nr := len(w.RevokedConnectors) + len(w.RevokedTasks)
			na := len(w.AssignedConnectors) + len(w.AssignedTasks)
			if nr == 0 && na == 0 && tl.Protocol != "eager" {
				quiet++
				continue
			}
			parts := []string{}
			if tl.Protocol == "eager" {
				parts = append(parts, fmt.Sprintf("restart all, keeps %s", cnt(w.KeepsConnectors, w.KeepsTasks)))
			}
			if nr > 0 {
				parts = append(parts, "revoke "+pieceList(w.RevokedConnectors, w.RevokedTasks))
			}
			if na > 0 {
				parts = append(parts, "assign "+pieceList(w.AssignedConnectors, w.AssignedTasks))
			}
			parts = append(parts, "owns "+cnt(w.Connectors, w.Tasks))
			fmt.Fprintf(b, "%sL->>%s: %s\n", indent, ids[w.Worker], mermaidText(strings.Join(parts, ", ")))
		}
		if rd.DelayMs > 0 {
			fmt.Fprintf(b, "%sNote over %s: %s\n", indent, span, mermaidText(fmt.Sprintf("delay %s: lost work stays unassigned until t+%s", Millis(rd.DelayMs), Millis(rd.TimeMs+rd.DelayMs))))
		} else if quiet == len(rd.Workers) && tl.Protocol != "eager" {
			fmt.Fprintf(b, "%sNote over %s: nothing moves\n", indent, span)
		}
	}
	s := tl.Summary
	fmt.Fprintf(b, "%sNote over %s: %s\n", indent, span, mermaidText(fmt.Sprintf("done at t+%s: %d rounds, %d tasks stopped, %d moved, %s task-seconds not running",
		Millis(s.EndMs), s.Rounds, s.TasksStopped, s.TasksMoved, seconds(s.TaskMsNotRunning))))
}

// pieceList shows counts, and the names when there are only a few.
func pieceList(conns, tasks []string) string {
	all := append(append([]string{}, conns...), tasks...)
	out := cnt(len(conns), len(tasks))
	if len(all) <= 4 {
		out += " (" + strings.Join(all, " ") + ")"
	}
	return out
}

// mermaidText keeps a label on one line and away from Mermaid's syntax
// characters (';' ends a statement, '#' starts an entity).
func mermaidText(s string) string {
	// Mermaid's entity codes (#lt;) keep markup in a name text, not tags, in
	// the page that renders the diagram; a name's own # is dropped so it
	// cannot start one. Controls and bidi marks become visible escapes.
	r := strings.NewReplacer("\n", " ", "\r", " ", ";", ",", "#", "", "%%", "%", "<", "#lt;", ">", "#gt;", "&", "#amp;", `"`, "#quot;")
	return format.EscapeTerminal(r.Replace(s))
}
