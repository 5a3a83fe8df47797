package timeline

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/plan/assignor"
)

// One rebalance round of the engine: the assignor's answer, the pieces it
// stops and starts, and when the next round is due.

// finishRound starts what the round in progress assigned, at its end.
func (e *engine) finishRound() {
	if e.pendingCycle >= 0 {
		e.acct.cycle(e.pendingCycle, e.busyUntil, len(e.deckIDs) > 0)
		e.pendingCycle = -1
	}
	for _, s := range e.starts {
		if s.m.dead || s.m.gone {
			continue
		}
		n := 0
		for _, id := range s.ids.common(s.m.owned) {
			if e.acct.start(id, e.busyUntil) {
				n += e.taskCount(id)
			}
		}
		e.track(s.m, e.busyUntil, n)
	}
	clear(e.starts)
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
	var rc assignor.RoundChanges
	var rd assignor.EagerDeal
	if e.lazy {
		rd = e.sim.RebalanceDeal()
		rc.Generation = rd.Generation
	} else {
		rc = e.sim.RebalanceChanges(false)
	}
	for i := range rc.Members {
		m := e.joined[i]
		if m.id != rc.Members[i].ID {
			panic("plan: the engine's members are out of step with the simulator's")
		}
		m.change = &rc.Members[i]
	}
	held := 0
	if e.eager {
		held = e.mostHeld()
		e.noteEagerStop(held)
	}
	e.mostStarted = 0
	if e.eager && !e.lazy {
		for _, m := range e.sorted {
			e.stopPieces(m, m.owned)
		}
	}
	view := RoundView{RoundHead: RoundHead{Round: len(e.rounds) + 1, Generation: rc.Generation, TimeMs: e.roundOpened(),
		Trigger: uniqueJoin(e.triggers)}, Workers: []WorkerRoundView{}}
	if e.rowNames() {
		view.Workers = make([]WorkerRoundView, 0, len(e.sorted))
	}
	revokedAny, keptAll, mostRevoked := false, false, 0
	switch {
	case e.lazy:
		e.dealRound(rd, &view)
	case e.eager:
		e.eagerHoldings(rc)
		fallthrough
	default:
		for _, m := range e.sorted {
			if n := e.memberRound(m, &view, rc.DelayMs); n > 0 {
				revokedAny, mostRevoked = true, max(mostRevoked, n)
			} else if !m.dead && !m.gone {
				keptAll = true
			}
		}
	}
	end := e.now + e.model.roundMs(e.eager, held, e.mostStarted)
	view.EndMs = end
	e.followUp, e.followUpStopMs = followUpRejoin(keptAll), e.model.stopWorkMs(mostRevoked)
	delay := rc.DelayMs
	view.DelayMs = delay
	e.rounds = append(e.rounds, view)
	if len(e.rounds) == e.stateAfter {
		e.keepState()
	}
	e.triggers = nil
	e.wantRound = false
	e.busyUntil, e.phase = end, e.now+e.model.stopBeforeJoinMs(e.eager, held)
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

// memberRound applies the round in progress to member m and adds its row
// to view (when the plan keeps rows); it returns how many pieces it
// revoked from a cooperative member, and keeps e.mostStarted.
func (e *engine) memberRound(m *engineMember, view *RoundView, delayMs int64) (revokedN int) {
	ch := m.change
	m.change = nil
	prev := m.owned
	prevC, prevT := m.conns, m.tasks
	var revoked, assigned idList
	keepC, keepT := m.conns, m.tasks
	if e.eager {
		// Eager sends whole assignments: what a worker had and did not
		// get back is in effect revoked; everything is restarted.
		after := m.next
		m.next = nil
		keepC, keepT = e.ix.common(prev, after)
		m.set(e.ix, after)
		if e.rowNames() && (keepC+keepT != len(prev) || keepC+keepT != len(after)) {
			revoked, assigned = prev.minus(after), after.minus(prev)
		}
		e.starts = append(e.starts, starter{m: m, ids: after})
		e.started(m, len(after))
	} else if len(ch.AssignedConns)+len(ch.AssignedTasks)+len(ch.RevokedConns)+len(ch.RevokedTasks) > 0 {
		// A cooperative worker told nothing keeps exactly what it had.
		revoked = sortedIDs(e.simIDs(ch.RevokedConns, ch.RevokedTasks))
		assigned = sortedIDs(e.simIDs(ch.AssignedConns, ch.AssignedTasks))
		revokedN = len(revoked)
		e.stopPieces(m, revoked.common(prev))
		after := prev.minus(revoked).union(assigned)
		keepC, keepT = e.ix.common(prev, after)
		m.set(e.ix, after)
		if len(assigned) > 0 {
			e.starts = append(e.starts, starter{m: m, ids: assigned})
			e.started(m, len(assigned))
		}
	}
	// What the round took from it and gave it, counted as the rows list it.
	rvC, rvT, asC, asT := prevC-keepC, prevT-keepT, m.conns-keepC, m.tasks-keepT
	if !e.eager {
		rvC, rvT = e.ix.count(revoked)
		asC, asT = e.ix.count(assigned)
	}
	if rvC+rvT+asC+asT > 0 {
		view.changed = true
		view.Totals.add(rvC, rvT, asC, asT)
	} else if e.detail == DetailCompact {
		return revokedN // the compact form lists the workers told something
	}
	if !e.rowNames() && !(e.detail == DetailCompact && !e.eager && !e.lite) {
		return revokedN // no per-worker view: the advisor and the summary read the summary only; compact eager rounds give their totals
	}
	rcs, rts := e.ix.namesOf(revoked)
	acs, ats := e.ix.namesOf(assigned)
	view.Workers = append(view.Workers, WorkerRoundView{
		Worker: m.id, KeepsConnectors: keepC, KeepsTasks: keepT,
		RevokedConnectors: rcs, RevokedTasks: rts, AssignedConnectors: acs, AssignedTasks: ats,
		DelayMs: delayMs, Connectors: m.conns, Tasks: m.tasks,
	})
	return revokedN
}

// started counts n pieces that live member m starts when the round in
// progress ends (the round lasts until the member starting the most has
// started them, one after another).
func (e *engine) started(m *engineMember, n int) {
	if !m.dead && !m.gone {
		e.mostStarted = max(e.mostStarted, n)
	}
}

// eagerHoldings sets every member's next holdings from an eager round's
// whole assignments, as sorted id lists made without sorting: each piece is
// marked with its new holder, then the pieces are read back in id order
// into one allocation. An eager round deals every piece, so this is the
// round's main cost in a big group.
func (e *engine) eagerHoldings(rc assignor.RoundChanges) {
	n := e.ix.len()
	if len(e.holder) < n {
		e.holder = make([]int32, n)
	}
	holder := e.holder[:n] // piece id -> 1 + the holder's index in e.joined (ints: no write barriers)
	counts := make([]int, len(e.joined)+1)
	for i := range rc.Members {
		ch := &rc.Members[i]
		for _, c := range ch.AssignedConns {
			holder[e.ix.fromSim(e.sim, c, false)] = int32(i + 1)
		}
		for _, t := range ch.AssignedTasks {
			holder[e.ix.fromSim(e.sim, t, true)] = int32(i + 1)
		}
	}
	for _, h := range holder {
		counts[h]++
	}
	// Two arenas taken in turn: the members' lists of the previous round
	// (in the other one) are read while this round's are written.
	e.arenaTurn = 1 - e.arenaTurn
	all := e.arenas[e.arenaTurn]
	if cap(all) < n-counts[0] {
		all = make(idList, n-counts[0])
		e.arenas[e.arenaTurn] = all
	}
	all = all[:n-counts[0]]
	at := 0
	for i, m := range e.joined {
		k := counts[i+1]
		m.next = all[at : at : at+k]
		at += k
	}
	for id, h := range holder {
		if h != 0 {
			m := e.joined[h-1]
			m.next = append(m.next, int32(id))
			holder[id] = 0
		}
	}
}

// rowNames says whether the rounds list every worker with the pieces it
// was revoked and assigned (the full form).
func (e *engine) rowNames() bool {
	return !e.lite && e.detail == DetailFull
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
	seen := make(map[string]bool, len(parts))
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		if !seen[p] {
			seen[p] = true
			kept = append(kept, p)
		}
	}
	// Joined once: a round that 10,000 joiners trigger took 3.5 s appending.
	return strings.Join(kept, "; ")
}

func describeSpecs(specs []assignor.ConnectorSpec) string {
	tasks := 0
	for _, c := range specs {
		tasks += c.Tasks
	}
	return fmt.Sprintf("%d connectors, %d tasks", len(specs), tasks)
}

// keepState keeps every member's holdings after the last round (its
// assignments, which start when it ends), for Timeline.StateAfter.
func (e *engine) keepState() {
	st := &RoundState{Workers: []WorkerCount{}}
	if n := len(e.rounds); n > 0 {
		st.Round, st.EndMs = n, e.rounds[n-1].EndMs
	}
	for _, m := range e.sorted {
		wc := WorkerCount{Worker: m.id, Host: e.hosts.Name(m.host), Connectors: m.conns, Tasks: m.tasks}
		wc.OwnedConnectors, wc.OwnedTasks = e.ix.namesOf(e.ownedOf(m))
		st.Workers = append(st.Workers, wc)
	}
	e.state = st
}
