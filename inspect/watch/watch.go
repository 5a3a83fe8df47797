// Package watch follows a Connect cluster for `connectscope watch`: the
// events between two looks at the group and the status topic (joins,
// leaves, rebalances, moves, state changes), and the summary it prints at
// the end (rebalances, task downtime, connectors held).
package watch

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// Watch event types (Event.Type).
const (
	EventRebalanceStarted   = "rebalance_started"
	EventRebalanceCompleted = "rebalance_completed"
	EventMemberJoined       = "member_joined"
	EventMemberLeft         = "member_left"
	EventMoved              = "moved"
	EventGroupState         = "group_state"
	EventConnectorState     = "connector_state"
	EventTaskState          = "task_state"
)

// Event is one thing that happened to the Connect cluster while it was
// watched. Fields that do not apply to the event's type are null.
type Event struct {
	TimeMs        int64   `json:"time_ms"`
	Type          string  `json:"type"`
	Message       string  `json:"message"`
	State         *string `json:"state"` // group state, or connector/task state
	PreviousState *string `json:"previous_state"`
	// Generation is the generation a status record carries, or for a
	// completed rebalance the latest generation seen in status records when
	// it completed (DescribeGroups does not tell the generation; workers
	// write the new one in status records once their tasks start).
	Generation *int32  `json:"generation"`
	MemberID   *string `json:"member_id"`
	WorkerID   *string `json:"worker_id"` // the worker a status names, or a member's URL
	Connector  *string `json:"connector"`
	Task       *string `json:"task"` // CONNECTOR-N
	From       *string `json:"from"` // moved: previous owner (null: nobody)
	To         *string `json:"to"`   // moved: new owner (null: nobody)
	DurationMs *int64  `json:"duration_ms"`
	// HeldForMs is, for work lost with a worker (moved with to null), the
	// delay the leader announced before reassigning it; null otherwise.
	HeldForMs *int64 `json:"held_for_ms"`
}

// Rebalance is one rebalance seen while watching.
type Rebalance struct {
	StartedAtMs   *int64 `json:"started_at_ms"` // null when it started and ended between two looks
	CompletedAtMs *int64 `json:"completed_at_ms"`
	DurationMs    *int64 `json:"duration_ms"`
	Generation    *int32 `json:"generation"` // the highest generation seen in status records after it completed
}

// TaskDowntime is how long one task was not RUNNING while watched.
type TaskDowntime struct {
	Task         string           `json:"task"`
	NotRunningMs int64            `json:"not_running_ms"`
	ByStateMs    map[string]int64 `json:"by_state_ms"`
}

// Summary sums up a watch.
type Summary struct {
	Type             string         `json:"type"` // "summary", so a jsonl reader can tell it from events
	StartedAtMs      int64          `json:"started_at_ms"`
	EndedAtMs        int64          `json:"ended_at_ms"`
	DurationMs       int64          `json:"duration_ms"`
	Events           int            `json:"events"`
	Rebalances       []Rebalance    `json:"rebalances"`
	RebalanceCount   int            `json:"rebalance_count"`
	RebalanceTotalMs int64          `json:"rebalance_total_ms"`  // over rebalances whose start was seen
	TaskNotRunningMs int64          `json:"task_not_running_ms"` // task-milliseconds spent in any state but RUNNING and PAUSED
	TasksNotRunning  []TaskDowntime `json:"tasks_not_running"`
	// TaskPausedMs is the task-milliseconds of tasks PAUSED on purpose (the
	// connector's target state), apart from the time not running.
	TaskPausedMs int64 `json:"task_paused_ms"`
	// ConnectorsHeld lists the connectors owned by no worker for a while
	// (lost with a worker, held for the scheduled delay), by name.
	ConnectorsHeld  []HeldConnector `json:"connectors_held"`
	GroupStateAtEnd string          `json:"group_state_at_end"`
	MembersAtEnd    int             `json:"members_at_end"`
	// LastAnswerMs is when the cluster last answered (the group described,
	// the status topic read); 0 when unknown.
	LastAnswerMs int64 `json:"last_answer_ms"`
	// Unanswered is true when the cluster had stopped answering before the
	// watch ended: the group's state at the end is the last one seen, as of
	// LastAnswerMs, not the current one.
	Unanswered bool `json:"unanswered"`
}

// HeldConnector is a connector owned by nobody for HeldMs while watched.
type HeldConnector struct {
	Connector string `json:"connector"`
	HeldMs    int64  `json:"held_ms"`
}

// Watcher turns successive looks at the Connect group and the records of
// the status topic into events. It holds no connection: the live driver (or
// a test) feeds it. Times are milliseconds since the epoch.
type Watcher struct {
	started  int64
	events   int
	group    *inspect.GroupDescription
	owners   map[string]string // piece ("connector X" / task id) -> owner, from the last Stable look
	members  map[string]string // member id -> label
	pending  *Rebalance
	done     []Rebalance
	maxGen   *int32
	conns    map[string]store.ConnectorStatus
	tasks    map[string]store.TaskStatus
	down     map[string]*TaskDowntime
	downFrom map[string]int64 // task -> since when it is not RUNNING (while watched)
	// held are pieces lost with a worker and owned by nobody since the time
	// given; heldDown the tasks among them whose held time counts as not
	// running (their status still says RUNNING, as a killed worker left it).
	held     map[string]int64
	heldDown map[string]int64
	// paused is each task's time PAUSED, kept apart from downtime;
	// connHeld each connector's closed held stretches.
	paused   map[string]int64
	connHeld map[string]int64
}

// New starts a watch at now with the status records read so far
// (the whole status topic up to its end), so state changes are reported
// from the state the cluster is in.
func New(now int64, status []inspect.Record) *Watcher {
	w := &Watcher{started: now, conns: map[string]store.ConnectorStatus{}, tasks: map[string]store.TaskStatus{},
		down: map[string]*TaskDowntime{}, downFrom: map[string]int64{}, held: map[string]int64{}, heldDown: map[string]int64{},
		paused: map[string]int64{}, connHeld: map[string]int64{}}
	res := store.DecodeStatus(status, store.DecodeOptions{})
	for _, c := range res.Connectors {
		w.conns[c.Name] = c
		w.noteGen(c.Generation)
	}
	for _, t := range res.Tasks {
		w.tasks[t.ID] = t
		w.noteGen(t.Generation)
		if t.State != "RUNNING" {
			w.downFrom[t.ID] = now
		}
	}
	return w
}

// noteGen tracks the latest generation the workers wrote in status records.
// Status records of a new generation arrive after its rebalance completed,
// so the latest completed rebalance learns its generation from them.
func (w *Watcher) noteGen(g int32) {
	if w.maxGen != nil && g <= *w.maxGen {
		return
	}
	w.maxGen = &g
	if n := len(w.done); n > 0 && (w.done[n-1].Generation == nil || *w.done[n-1].Generation < g) {
		w.done[n-1].Generation = ptr(g)
	}
}

func (w *Watcher) generation() *int32 {
	if w.maxGen == nil {
		return nil
	}
	g := *w.maxGen
	return &g
}

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

// ObserveStatus applies one new status-topic record.
func (w *Watcher) ObserveStatus(now int64, r inspect.Record) []Event {
	res := store.DecodeStatus([]inspect.Record{r}, store.DecodeOptions{})
	var out []Event
	emit := func(e Event) { e.TimeMs = now; out = append(out, e); w.events++ }
	key := string(r.Key)
	if r.Value == nil {
		switch {
		case strings.HasPrefix(key, "status-connector-"):
			name := strings.TrimPrefix(key, "status-connector-")
			if _, ok := w.conns[name]; ok {
				delete(w.conns, name)
				emit(Event{Type: EventConnectorState, Connector: ptr(name), Message: "connector " + name + ": status deleted"})
			}
			for id, t := range w.tasks {
				if t.Connector == name {
					w.setTask(now, id, nil)
				}
			}
		case strings.HasPrefix(key, "status-task-"):
			id := strings.TrimPrefix(key, "status-task-")
			if _, ok := w.tasks[id]; ok {
				w.setTask(now, id, nil)
				emit(Event{Type: EventTaskState, Task: ptr(id), Message: "task " + id + ": status deleted"})
			}
		}
		return out
	}
	for _, c := range res.Connectors {
		w.noteGen(c.Generation)
		prev, had := w.conns[c.Name]
		w.conns[c.Name] = c
		if had && prev.State == c.State && format.TextOr(prev.WorkerID, "") == format.TextOr(c.WorkerID, "") {
			continue
		}
		e := Event{Type: EventConnectorState, Connector: ptr(c.Name), State: ptr(c.State),
			WorkerID: c.WorkerID, Generation: ptr(c.Generation)}
		var prevWorker *string
		if had {
			e.PreviousState, prevWorker = ptr(prev.State), prev.WorkerID
		}
		e.Message = stateMessage("connector "+c.Name, e, prevWorker)
		emit(e)
	}
	for _, t := range res.Tasks {
		w.noteGen(t.Generation)
		prev, had := w.tasks[t.ID]
		// Connect's reader ignores UNASSIGNED over a RUNNING of the same or a
		// later generation (connect-internals.md §7); so does the watch.
		if had && t.State == "UNASSIGNED" && prev.State == "RUNNING" && prev.Generation >= t.Generation {
			continue
		}
		w.setTask(now, t.ID, &t)
		if had && prev.State == t.State && format.TextOr(prev.WorkerID, "") == format.TextOr(t.WorkerID, "") {
			continue
		}
		e := Event{Type: EventTaskState, Connector: ptr(t.Connector), Task: ptr(t.ID), State: ptr(t.State),
			WorkerID: t.WorkerID, Generation: ptr(t.Generation)}
		var prevWorker *string
		if had {
			e.PreviousState, prevWorker = ptr(prev.State), prev.WorkerID
		}
		e.Message = stateMessage("task "+t.ID, e, prevWorker)
		emit(e)
	}
	return out
}

// setTask records a task's new status (nil: deleted) and closes or opens
// its not-running interval.
func (w *Watcher) setTask(now int64, id string, t *store.TaskStatus) {
	if since, ok := w.heldDown[id]; ok && (t == nil || t.State != "RUNNING") {
		w.addDown(id, "HELD", now-since) // from here its status counts
		delete(w.heldDown, id)
	}
	prev, had := w.tasks[id]
	if had && prev.State != "RUNNING" {
		if since, ok := w.downFrom[id]; ok {
			w.addDown(id, prev.State, now-since)
			delete(w.downFrom, id)
		}
	}
	if t == nil {
		delete(w.tasks, id)
		return
	}
	w.tasks[id] = *t
	if t.State != "RUNNING" {
		w.downFrom[id] = now
	}
}

func (w *Watcher) addDown(id, state string, ms int64) {
	if ms <= 0 {
		return
	}
	if state == "PAUSED" { // paused on purpose: not an outage
		w.paused[id] += ms
		return
	}
	d := w.down[id]
	if d == nil {
		d = &TaskDowntime{Task: id, ByStateMs: map[string]int64{}}
		w.down[id] = d
	}
	d.NotRunningMs += ms
	d.ByStateMs[state] += ms
}

// Summary sums up the watch at now; it may be called more than once.
func (w *Watcher) Summary(now int64) Summary {
	s := Summary{Type: "summary", StartedAtMs: w.started, EndedAtMs: now, DurationMs: now - w.started,
		Events: w.events, Rebalances: append([]Rebalance{}, w.done...), TasksNotRunning: []TaskDowntime{}}
	if w.pending != nil { // still rebalancing at the end
		s.Rebalances = append(s.Rebalances, *w.pending)
	}
	s.RebalanceCount = len(s.Rebalances)
	for _, r := range w.done {
		if r.DurationMs != nil {
			s.RebalanceTotalMs += *r.DurationMs
		}
	}
	totals := map[string]*TaskDowntime{}
	for id, d := range w.down {
		c := &TaskDowntime{Task: id, NotRunningMs: d.NotRunningMs, ByStateMs: maps.Clone(d.ByStateMs)}
		totals[id] = c
	}
	for _, ms := range w.paused {
		s.TaskPausedMs += ms
	}
	// addOpen counts a stretch still open at the end under state.
	addOpen := func(id string, since int64, state string) {
		if state == "PAUSED" {
			s.TaskPausedMs += max(0, now-since)
			return
		}
		c := totals[id]
		if c == nil {
			c = &TaskDowntime{Task: id, ByStateMs: map[string]int64{}}
			totals[id] = c
		}
		if ms := now - since; ms > 0 {
			c.NotRunningMs += ms
			c.ByStateMs[state] += ms
		}
	}
	for id, since := range w.downFrom { // still down at the end
		addOpen(id, since, w.tasks[id].State)
	}
	for id, since := range w.heldDown { // still held at the end
		addOpen(id, since, "HELD")
	}
	for _, d := range totals {
		if d.NotRunningMs > 0 {
			s.TasksNotRunning = append(s.TasksNotRunning, *d)
			s.TaskNotRunningMs += d.NotRunningMs
		}
	}
	slices.SortFunc(s.TasksNotRunning, func(a, b TaskDowntime) int { return compareTaskIDStrings(a.Task, b.Task) })
	held := maps.Clone(w.connHeld)
	for piece, since := range w.held { // still held at the end
		if name, ok := strings.CutPrefix(piece, "connector "); ok {
			held[name] += now - since
		}
	}
	s.ConnectorsHeld = []HeldConnector{}
	for _, name := range slices.Sorted(maps.Keys(held)) {
		if held[name] > 0 {
			s.ConnectorsHeld = append(s.ConnectorsHeld, HeldConnector{Connector: name, HeldMs: held[name]})
		}
	}
	if w.group != nil {
		s.GroupStateAtEnd, s.MembersAtEnd = w.group.State, len(w.group.Members)
	}
	return s
}

// compareTaskIDStrings orders CONNECTOR-N ids by connector, then number.
func compareTaskIDStrings(a, b string) int {
	ca, na := splitTaskID(a)
	cb, nb := splitTaskID(b)
	return cmp.Or(cmp.Compare(ca, cb), cmp.Compare(na, nb), cmp.Compare(a, b))
}

func splitTaskID(id string) (string, int) {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return id, 0
	}
	n := 0
	for _, r := range id[i+1:] {
		if r < '0' || r > '9' {
			return id, 0
		}
		n = n*10 + int(r-'0')
	}
	return id[:i], n
}

func stateMessage(what string, e Event, prevWorker *string) string {
	msg := what + ": "
	state := format.TextOr(e.State, "")
	switch {
	case e.PreviousState != nil && *e.PreviousState == state && e.WorkerID != nil:
		// Same state, another worker: the piece moved, its state did not change.
		msg += state + ", now on " + *e.WorkerID
		if prevWorker != nil {
			msg += " (was on " + *prevWorker + ")"
		}
	default:
		if e.PreviousState != nil {
			msg += *e.PreviousState + " → "
		}
		msg += state
		if e.WorkerID != nil {
			msg += " on " + *e.WorkerID
		}
	}
	if e.Generation != nil {
		msg += fmt.Sprintf(" (generation %d)", *e.Generation)
	}
	return msg
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func orNobody(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
