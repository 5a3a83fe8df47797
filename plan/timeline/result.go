package timeline

// Timeline is what one protocol does over the whole event.
type Timeline struct {
	Protocol string      `json:"protocol"`
	Events   []EventView `json:"events"`
	Rounds   []RoundView `json:"rounds"`
	Summary  Summary     `json:"summary"`
	Outages  []Outage    `json:"outages"`
	Notes    []string    `json:"notes"`

	// Marks and Running feed the pictures (--plot); they are not part of
	// the JSON form, whose events are the text above.
	Marks   []Mark             `json:"-"`
	Running map[string][]Point `json:"-"` // host -> tasks running on it, a step at each point
	// DelayRead: some round depended on the max delay; a timeline with
	// none is the same under every max delay (when its start is).
	DelayRead bool `json:"-"`
	// Sums are the outages summed per piece, for the compact form
	// (DetailCompact keeps no intervals, so Outages is empty then).
	Sums []OutageSum `json:"-"`
	// StateAfter is every worker's holdings after round
	// Options.StateAfterRound (nil when not asked for).
	StateAfter *RoundState `json:"-"`
}

// RoundState is what every member of the group owns after one round: the
// round asked for, or the last one when the timeline has fewer rounds
// (Round says which; 0: before any round).
type RoundState struct {
	Protocol string        `json:"protocol"`
	Round    int           `json:"round"`
	EndMs    int64         `json:"end_ms"` // when the round ends and what it assigned starts
	Workers  []WorkerCount `json:"workers"`
}

// Mark is an event of a timeline, for a picture.
type Mark struct {
	TimeMs int64
	Kind   string // MarkStop, MarkCrash, MarkNotice, MarkReturn, MarkJoin, MarkLeader, MarkDelayEnds
	Worker string // member id ("" for a delay's end)
}

// Kinds of Mark.
const (
	MarkStop      = "stop"
	MarkCrash     = "crash"
	MarkNotice    = "notice"
	MarkReturn    = "return"
	MarkJoin      = "join"
	MarkLeader    = "leader"
	MarkDelayEnds = "delay-ends"
)

// Point is how many tasks run on a host from TimeMs on.
type Point struct {
	TimeMs int64
	Tasks  int
}

// Outage is when one configured piece was not running during the timeline.
type Outage struct {
	Piece        string     `json:"piece"`
	Kind         string     `json:"kind"` // connector or task
	Host         *string    `json:"host"` // the worker that ran it at the start; null for a piece that did not run then
	NotRunningMs int64      `json:"not_running_ms"`
	Intervals    []Interval `json:"intervals"`
	Name         *string    `json:"name"` // Host's HOST:PORT name, as flags take it
}

// Interval is a span of plan time, [from, to).
type Interval struct {
	FromMs int64 `json:"from_ms"`
	ToMs   int64 `json:"to_ms"`
}

// EventView is one thing that happened, at plan time TimeMs.
type EventView struct {
	TimeMs int64  `json:"time_ms"`
	Event  string `json:"event"`
	// Kind is what happened: stop, crash, notice (the group notices a
	// crash), return (a restarted worker is back), join, leader (leadership
	// moved; Worker is the new leader) or connectors (configuration change).
	Kind   string  `json:"kind"`
	Worker *string `json:"worker"` // the member id the event is about; null for connectors
	Name   *string `json:"name"`   // Worker's HOST:PORT name, as --worker and --order take it
}

// EventKindConnectors is the kind of a configuration change event (the
// other kinds are the Mark kinds).
const EventKindConnectors = "connectors"

// RoundView is one rebalance round of a plan.
type RoundView struct {
	RoundHead
	Workers []WorkerRoundView `json:"workers"`
	changed bool              // some worker was assigned or revoked something (set in lite timelines, which omit the names)
	// Totals count what the round revoked and assigned over all workers
	// (the compact form shows them; the full form's rows add up to them).
	Totals RoundTotals `json:"-"`
}

// RoundHead is what a round is before what it did to each worker: its
// number and generation, when it ran, what triggered it and the delay it
// told. The full form (RoundView) and the compact form (CompactRound)
// share it.
type RoundHead struct {
	Round      int    `json:"round"`
	Generation int    `json:"generation"`
	TimeMs     int64  `json:"time_ms"`
	EndMs      int64  `json:"end_ms"`
	Trigger    string `json:"trigger"`
	DelayMs    int64  `json:"delay_ms"`
}

// WorkerRoundView is what one worker does in a round. Under eager, revoked
// and assigned are derived from what it held before and after (eager sends
// whole assignments) and every piece is restarted.
type WorkerRoundView struct {
	Worker             string   `json:"worker"`
	KeepsConnectors    int      `json:"keeps_connectors"`
	KeepsTasks         int      `json:"keeps_tasks"`
	RevokedConnectors  []string `json:"revoked_connectors"`
	RevokedTasks       []string `json:"revoked_tasks"`
	AssignedConnectors []string `json:"assigned_connectors"`
	AssignedTasks      []string `json:"assigned_tasks"`
	DelayMs            int64    `json:"delay_ms"`
	Connectors         int      `json:"connectors"`
	Tasks              int      `json:"tasks"`
	Name               string   `json:"name"` // Worker's HOST:PORT name, as flags take it
}

// Summary condenses a timeline.
type Summary struct {
	Rounds                int           `json:"rounds"`
	ConnectorsStopped     int           `json:"connectors_stopped"`
	TasksStopped          int           `json:"tasks_stopped"`
	ConnectorsMoved       int           `json:"connectors_moved"`
	TasksMoved            int           `json:"tasks_moved"`
	TaskMsNotRunning      int64         `json:"task_ms_not_running"`
	ConnectorMsNotRunning int64         `json:"connector_ms_not_running"`
	LongestTaskOutageMs   int64         `json:"longest_task_outage_ms"`
	AllRunningAfterMs     *int64        `json:"all_running_after_ms"`
	BalancedAfterMs       *int64        `json:"balanced_after_ms"`
	EndMs                 int64         `json:"end_ms"`
	NotRunningAtEnd       []string      `json:"not_running_at_end"`
	Final                 []WorkerCount `json:"final"`
}

// WorkerCount is how much one worker owns.
type WorkerCount struct {
	Worker     string `json:"worker"`
	Host       string `json:"host"`
	Connectors int    `json:"connectors"`
	Tasks      int    `json:"tasks"`
	// Name is the worker's HOST:PORT name, as --worker, --order and
	// inspect status take it (a restarted incarnation has its machine's).
	Name string `json:"name"`
	// OwnedConnectors and OwnedTasks are the pieces it owns, sorted.
	OwnedConnectors []string `json:"owned_connectors"`
	OwnedTasks      []string `json:"owned_tasks"`
}
