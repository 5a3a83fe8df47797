package watch

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
)

// ObserveGroup compares a new look at the Connect group with the previous.
func (w *Watcher) ObserveGroup(now int64, g *inspect.GroupDescription) []Event {
	var out []Event
	emit := func(e Event) { e.TimeMs = now; out = append(out, e); w.events++ }
	prev := w.group
	w.group = g
	if g == nil {
		return nil
	}
	view := group.Members(g)
	members := memberLabels(view)
	if prev == nil {
		w.firstLook(now, g, view, members, emit)
		return out
	}
	w.joinsAndLeaves(members, emit)
	if !w.stateChanged(now, prev.State, g, emit) {
		return out
	}
	if prev.State == inspect.GroupStable && sameMemberSet(prev, g) && sameAssignments(prev, g) {
		return out
	}
	owners := ownersOf(view)
	w.rebalanceCompleted(now, g, emit)
	w.moved(now, announcedDelay(view), owners, emit)
	w.owners = owners
	return out
}

// memberLabels names each member for messages as status records name
// workers (memberLabel).
func memberLabels(view group.MembersResult) map[string]string {
	members := map[string]string{}
	for _, m := range view.Members {
		members[m.MemberID] = memberLabel(m)
	}
	return members
}

// firstLook reports the group as first seen and remembers who owns what.
func (w *Watcher) firstLook(now int64, g *inspect.GroupDescription, view group.MembersResult, members map[string]string, emit func(Event)) {
	w.members = members
	if g.State == inspect.GroupStable {
		w.owners = ownersOf(view)
	}
	emit(Event{Type: EventGroupState, State: ptr(g.State),
		Message: fmt.Sprintf("group %s is %s with %s (protocol %s)", g.Group, g.State, format.Count(len(g.Members), "member", "members"), orDash(g.Protocol))})
	if inspect.GroupRebalancing(g) {
		w.pending = &Rebalance{StartedAtMs: ptr(now)}
	}
}

// joinsAndLeaves reports members by member id, whatever the state, and
// keeps the labels of the current members.
func (w *Watcher) joinsAndLeaves(members map[string]string, emit func(Event)) {
	for _, id := range slices.Sorted(maps.Keys(members)) {
		if _, ok := w.members[id]; !ok {
			emit(Event{Type: EventMemberJoined, MemberID: ptr(id), WorkerID: ptr(members[id]),
				Message: "member joined: " + members[id] + " (" + id + ")"})
		}
	}
	for _, id := range slices.Sorted(maps.Keys(w.members)) {
		if _, ok := members[id]; !ok {
			emit(Event{Type: EventMemberLeft, MemberID: ptr(id), WorkerID: ptr(w.members[id]),
				Message: "member left: " + w.members[id] + " (" + id + ")"})
		}
	}
	for id, l := range members {
		w.members[id] = l
	}
	for id := range w.members {
		if _, ok := members[id]; !ok {
			delete(w.members, id)
		}
	}
}

// stateChanged reports a rebalance starting and other state changes; it
// says whether the group is Stable, when ownership can be compared.
func (w *Watcher) stateChanged(now int64, prevState string, g *inspect.GroupDescription, emit func(Event)) (stable bool) {
	if inspect.GroupRebalancing(g) && w.pending == nil {
		w.pending = &Rebalance{StartedAtMs: ptr(now)}
		emit(Event{Type: EventRebalanceStarted, State: ptr(g.State), PreviousState: ptr(prevState),
			Message: fmt.Sprintf("rebalance started (%s → %s)", prevState, g.State)})
	}
	if g.State != prevState && !inspect.GroupRebalancing(g) && g.State != inspect.GroupStable {
		emit(Event{Type: EventGroupState, State: ptr(g.State), PreviousState: ptr(prevState),
			Message: fmt.Sprintf("group is %s (was %s)", g.State, prevState)})
	}
	if g.State != inspect.GroupStable {
		if g.State == inspect.GroupEmpty || g.State == inspect.GroupDead {
			w.owners = map[string]string{}
		}
		return false
	}
	return true
}

// rebalanceCompleted closes the pending rebalance (or one that started and
// ended between two looks) and reports it.
func (w *Watcher) rebalanceCompleted(now int64, g *inspect.GroupDescription, emit func(Event)) {
	rb := Rebalance{CompletedAtMs: ptr(now), Generation: w.generation()}
	if w.pending != nil && w.pending.StartedAtMs != nil {
		rb.StartedAtMs = w.pending.StartedAtMs
		rb.DurationMs = ptr(now - *w.pending.StartedAtMs)
	}
	w.pending = nil
	w.done = append(w.done, rb)
	msg := fmt.Sprintf("rebalance completed: %s, protocol %s", format.Count(len(g.Members), "member", "members"), orDash(g.Protocol))
	if rb.DurationMs != nil {
		msg += fmt.Sprintf(", took %s", time.Duration(*rb.DurationMs)*time.Millisecond)
	} else {
		msg += " (started and ended between two looks)"
	}
	if rb.Generation != nil {
		msg += fmt.Sprintf(" (latest generation in status records so far: %d)", *rb.Generation)
	}
	emit(Event{Type: EventRebalanceCompleted, State: ptr(g.State), Generation: rb.Generation, DurationMs: rb.DurationMs, Message: msg})
}

// moved reports each piece whose owner changed since the last Stable look.
func (w *Watcher) moved(now, delay int64, owners map[string]string, emit func(Event)) {
	for _, piece := range movedPieces(w.owners, owners) {
		from, to := w.owners[piece], owners[piece]
		e := Event{Type: EventMoved, From: nilIfEmpty(from), To: nilIfEmpty(to)}
		if name, ok := strings.CutPrefix(piece, "connector "); ok {
			e.Connector = ptr(name)
		} else {
			e.Task = ptr(piece)
		}
		since, wasHeld := w.held[piece]
		switch {
		case to == "" && delay > 0:
			e.HeldForMs = ptr(delay)
			e.Message = fmt.Sprintf("held %s (lost with %s): the leader reassigns it after up to %s", piece, from, format.Millis(delay))
			w.hold(now, piece, e.Task != nil)
		case to == "":
			// No delay announced: the next round assigns it; not held.
			e.Message = fmt.Sprintf("unowned %s (was on %s)", piece, from)
			w.hold(now, piece, false)
		case wasHeld:
			e.Message = fmt.Sprintf("reassigned %s to %s after %s held", piece, to, format.Millis(now-since))
			w.release(now, piece)
		case from == "":
			e.Message = fmt.Sprintf("assigned %s to %s", piece, to)
		default:
			e.Message = fmt.Sprintf("moved %s: %s → %s", piece, from, to)
		}
		emit(e)
	}
}

// memberLabel names a member as status records name workers: host:port,
// else its member id.
func memberLabel(m group.MemberView) string {
	if id := group.WorkerID(m); id != "" {
		return id
	}
	return m.MemberID
}

// announcedDelay is the longest delay the members' latest assignments carry.
func announcedDelay(v group.MembersResult) int64 {
	var d int64
	for _, m := range v.Members {
		if m.Assignment != nil {
			d = max(d, m.Assignment.DelayMs)
		}
	}
	return d
}

// hold notes a piece owned by nobody from now; a task whose status says
// RUNNING (nobody will write otherwise) counts as not running meanwhile.
func (w *Watcher) hold(now int64, piece string, task bool) {
	w.held[piece] = now
	if st, ok := w.tasks[piece]; task && (!ok || st.State == "RUNNING") {
		w.heldDown[piece] = now
	}
}

// release ends a piece's held time (it is owned again).
func (w *Watcher) release(now int64, piece string) {
	if name, ok := strings.CutPrefix(piece, "connector "); ok {
		w.connHeld[name] += now - w.held[piece]
	}
	delete(w.held, piece)
	if since, ok := w.heldDown[piece]; ok {
		w.addDown(piece, "HELD", now-since)
		delete(w.heldDown, piece)
	}
}

// ownersOf maps each owned piece to its owner's label.
func ownersOf(v group.MembersResult) map[string]string {
	out := map[string]string{}
	for _, m := range v.Members {
		if m.Owned == nil {
			continue
		}
		label := memberLabel(m)
		for _, c := range m.Owned.Connectors {
			out["connector "+c] = label
		}
		for _, t := range m.Owned.Tasks {
			out[t] = label
		}
	}
	return out
}

func movedPieces(before, after map[string]string) []string {
	var out []string
	for p, o := range before {
		if after[p] != o {
			out = append(out, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func sameMemberSet(a, b *inspect.GroupDescription) bool {
	if len(a.Members) != len(b.Members) {
		return false
	}
	ids := map[string]bool{}
	for _, m := range a.Members {
		ids[m.MemberID] = true
	}
	for _, m := range b.Members {
		if !ids[m.MemberID] {
			return false
		}
	}
	return true
}

// sameAssignments: a new assignment or new metadata for the same members
// means a rebalance happened between two looks.
func sameAssignments(a, b *inspect.GroupDescription) bool {
	prev := map[string]inspect.GroupMember{}
	for _, m := range a.Members {
		prev[m.MemberID] = m
	}
	for _, m := range b.Members {
		p := prev[m.MemberID]
		if string(p.Assignment) != string(m.Assignment) || string(p.Metadata) != string(m.Metadata) {
			return false
		}
	}
	return true
}
