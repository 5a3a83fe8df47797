package timeline

import (
	"fmt"

	"github.com/connectscope/connectscope/plan/assignor"
)

// One rebalance round of the engine: the assignor's answer, the pieces it
// stops and starts, and when the next round is due.

// finishRound starts what the round in progress assigned, at its end.
func (e *engine) finishRound() {
	var m *engineMember
	n := 0
	for _, s := range e.starts {
		if s.m != m {
			e.track(m, e.busyUntil, n)
			m, n = s.m, 0
		}
		if s.m.dead || s.m.gone || !s.m.owned.has(s.id) {
			continue
		}
		if e.acct.start(s.id, e.busyUntil) {
			n += e.taskCount(s.id)
		}
	}
	e.track(m, e.busyUntil, n)
	e.starts = e.starts[:0]
}

// stopPieces stops the pieces member m runs among ids, at e.now.
func (e *engine) stopPieces(m *engineMember, ids idList) {
	n := 0
	for _, id := range ids {
		if e.acct.stop(id, e.now) {
			n -= e.taskCount(id)
		}
	}
	e.track(m, e.now, n)
}

// round runs one rebalance round starting at e.now.
func (e *engine) round() {
	if e.leader == "" && len(e.joined) > 0 {
		e.leader = e.joined[0].id
	}
	if d := e.base + e.now - e.sim.Now(); d > 0 {
		e.sim.Sleep(d)
	}
	rc := e.sim.RebalanceChanges(false)
	for i := range rc.Members {
		m := e.joined[i]
		if m.id != rc.Members[i].ID {
			panic("plan: the engine's members are out of step with the simulator's")
		}
		m.change = &rc.Members[i]
	}
	end := e.now + e.model.RoundTimeMs
	if e.eager {
		for _, m := range e.sorted {
			e.stopPieces(m, m.owned)
		}
	}
	view := RoundView{Round: len(e.rounds) + 1, Generation: rc.Generation, TimeMs: e.roundOpened(), EndMs: end,
		Trigger: uniqueJoin(e.triggers), Workers: []WorkerRoundView{}}
	if !e.lite {
		view.Workers = make([]WorkerRoundView, 0, len(e.sorted))
	}
	revokedAny := false
	for _, m := range e.sorted {
		ch := m.change
		m.change = nil
		prev := m.owned
		var revoked, assigned idList
		keepC, keepT := m.conns, m.tasks
		if e.eager {
			// Eager sends whole assignments: what a worker had and did not
			// get back is in effect revoked; everything is restarted.
			after := sortedIDs(e.simIDs(ch.AssignedConns, ch.AssignedTasks))
			revoked, assigned = prev.minus(after), after.minus(prev)
			keepC, keepT = e.ix.common(prev, after)
			m.set(e.ix, after)
			for _, id := range after {
				e.starts = append(e.starts, starter{m: m, id: id})
			}
		} else if len(ch.AssignedConns)+len(ch.AssignedTasks)+len(ch.RevokedConns)+len(ch.RevokedTasks) > 0 {
			// A cooperative worker told nothing keeps exactly what it had.
			revoked = sortedIDs(e.simIDs(ch.RevokedConns, ch.RevokedTasks))
			assigned = sortedIDs(e.simIDs(ch.AssignedConns, ch.AssignedTasks))
			view.changed = true
			if len(revoked) > 0 {
				revokedAny = true
			}
			e.stopPieces(m, revoked.common(prev))
			after := prev.minus(revoked).union(assigned)
			keepC, keepT = e.ix.common(prev, after)
			m.set(e.ix, after)
			for _, id := range assigned {
				e.starts = append(e.starts, starter{m: m, id: id})
			}
		}
		if len(revoked)+len(assigned) > 0 {
			view.changed = true
		}
		if e.lite {
			continue // the advisor reads the summary only: no per-worker view
		}
		rcs, rts := e.ix.namesOf(revoked)
		acs, ats := e.ix.namesOf(assigned)
		view.Workers = append(view.Workers, WorkerRoundView{
			Worker: m.id, KeepsConnectors: keepC, KeepsTasks: keepT,
			RevokedConnectors: rcs, RevokedTasks: rts, AssignedConnectors: acs, AssignedTasks: ats,
			DelayMs: rc.DelayMs, Connectors: m.conns, Tasks: m.tasks,
		})
	}
	delay := rc.DelayMs
	view.DelayMs = delay
	e.rounds = append(e.rounds, view)
	e.triggers = nil
	e.wantRound = false
	e.busyUntil = end
	e.followUpAt, e.delayedAt = -1, -1
	if revokedAny {
		e.followUpAt = end
	} else if delay > 0 {
		at := e.now + delay
		if at < end {
			at = end
		}
		e.delayedAt = at
	}
}

// simIDs maps the simulator's connector and task ids to piece ids, in a
// new list.
func (e *engine) simIDs(conns, tasks []int32) []int32 {
	out := make([]int32, 0, len(conns)+len(tasks))
	for _, c := range conns {
		out = append(out, e.ix.fromSim(e.sim, c, false))
	}
	for _, t := range tasks {
		out = append(out, e.ix.fromSim(e.sim, t, true))
	}
	return out
}

func uniqueJoin(parts []string) string {
	seen := map[string]bool{}
	out := ""
	for _, p := range parts {
		if seen[p] {
			continue
		}
		seen[p] = true
		if out != "" {
			out += "; "
		}
		out += p
	}
	return out
}

func describeSpecs(specs []assignor.ConnectorSpec) string {
	tasks := 0
	for _, c := range specs {
		tasks += c.Tasks
	}
	return fmt.Sprintf("%d connectors, %d tasks", len(specs), tasks)
}
