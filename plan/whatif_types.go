package plan

import (
	"context"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/assignor"
)

// ClusterState is the starting point of a what-if plan: what is configured
// and who owns what, as read from a snapshot, a dump or --synthetic.
type ClusterState struct {
	Source     string                   // where it came from, for the output
	Connectors []assignor.ConnectorSpec // configured connectors (Tasks = 0 for STOPPED)
	Workers    []WorkerState            // members in group (join) order
	Leader     string                   // member id of the leader ("" = the first worker)
	Protocol   string                   // the group's selected protocol (default|eager|compatible|sessioned), "" unknown
	Notes      []string                 // what the reader had to assume
	// Pending is what the leader holds between rounds as far as the input
	// shows it (a delay running, work held back, a revocation to follow
	// up); nil = a settled cluster.
	Pending *Pending
}

// WorkerState is one member and what it owns now.
type WorkerState struct {
	ID      string
	Aliases []string // other names an operator may use: client id, REST URL, host:port
	Owned   assignor.Pieces
}

// PlanOptions are the assignor and time-model settings shared by every plan.
type PlanOptions struct {
	Protocol         string               // cooperative protocol of the group: compatible|sessioned ("" = from the state, else sessioned)
	MaxDelayMs       int64                // scheduled.rebalance.max.delay.ms
	KafkaVersion     kafkaversion.Version // unknown = current (3.9) behaviour
	JDK              int                  // 0 = 17
	RoundTimeMs      int64                // how long one round takes (join, sync, stop and start work)
	SessionTimeoutMs int64                // how long the group takes to notice a crashed worker
	MaxRounds        int                  // safety cap per timeline
	// HeartbeatIntervalMs is heartbeat.interval.ms (0 = not known): with
	// it, membership changes the group notices within one join window
	// share a round, and a crash is noticed session.timeout.ms after the
	// member's last heartbeat (timemodel.go).
	HeartbeatIntervalMs int64
	// Sources says where each setting came from (Setting* -> Source*),
	// shown in assumptions.settings; a setting not listed is "default"
	// when left zero, "given" otherwise.
	Sources map[string]string
	// Ctx stops a long plan when it is cancelled (Ctrl-C); nil never does.
	Ctx context.Context
}

// PlanResult is the output of every what-if plan.
type PlanResult struct {
	Plan        string            `json:"plan"`
	Source      string            `json:"source"`
	Event       string            `json:"event"`
	Protocol    string            `json:"protocol"`
	Assumptions Assumptions       `json:"assumptions"`
	Initial     []WorkerCount     `json:"initial"`
	Labels      map[string]string `json:"labels"` // member id -> short name used in tables and messages
	Branches    []Branch          `json:"branches"`
	Notes       []string          `json:"notes"`
	// Explain adds the time model's rules to the tables (--explain); the
	// JSON form always has them, in assumptions.model.
	Explain bool `json:"-"`
	// Gates are --max-outage, --max-task-seconds, --max-moves and
	// --max-rounds with what broke them; null when none was given.
	Gates *GateReport `json:"gates"`
}

// Assumptions lists the inputs of the time model, shown with every plan.
type Assumptions struct {
	RoundTimeMs      int64   `json:"round_time_ms"`
	SessionTimeoutMs int64   `json:"session_timeout_ms"`
	MaxDelayMs       int64   `json:"max_delay_ms"`
	RestartTimeMs    *int64  `json:"restart_time_ms"`
	ReturnsAfterMs   *int64  `json:"returns_after_ms"`
	Stop             *string `json:"stop"`
	// PaceMs is the time between two departures, joins or scaling steps
	// (null when the event is one worker or all at once by nature).
	PaceMs       *int64   `json:"pace_ms"`
	KafkaVersion string   `json:"kafka_version"`
	JDK          int      `json:"jdk"`
	Leader       string   `json:"leader"`
	Model        []string `json:"model"`
	// LeaderName is the leader's HOST:PORT name, as flags take it.
	LeaderName string `json:"leader_name"`
	// Order is a rolling restart's order as names --order accepts (null
	// for other plans).
	Order []string `json:"order"`
	// CrashNoticedAfterMs is when the group notices a crash, after the
	// kill; JoinWindowMs how long after a membership change further
	// changes still share the round (timemodel.go).
	CrashNoticedAfterMs int64 `json:"crash_noticed_after_ms"`
	JoinWindowMs        int64 `json:"join_window_ms"`
	// Settings lists every setting the plan ran with, its value and where
	// it came from (flag, worker file, context, cluster, default).
	Settings []SettingSource `json:"settings"`
	// Pending is the leader's state the plan starts from, reconstructed
	// from the input (null = a settled cluster: nothing held, no delay).
	Pending *PendingView `json:"pending"`
}

// Branch is one way the event can go, run under both protocol families.
type Branch struct {
	Name        string    `json:"name"`
	Cooperative *Timeline `json:"cooperative"`
	Eager       *Timeline `json:"eager"`
}

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
	Round      int               `json:"round"`
	Generation int               `json:"generation"`
	TimeMs     int64             `json:"time_ms"`
	EndMs      int64             `json:"end_ms"`
	Trigger    string            `json:"trigger"`
	DelayMs    int64             `json:"delay_ms"`
	Workers    []WorkerRoundView `json:"workers"`
	changed    bool              // some worker was assigned or revoked something (set in lite timelines, which omit the names)
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
