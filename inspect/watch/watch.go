// Package watch follows a Connect cluster for `connectscope watch`: the
// events between two looks at the group and the status topic (joins,
// leaves, rebalances, moves, state changes), and the summary it prints at
// the end (rebalances, task downtime, connectors held).
package watch

import (
	"github.com/connectscope/connectscope/inspect"
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
