package whatif

import (
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// PlanResult is the output of every what-if plan.
type PlanResult struct {
	Head
	Branches []Branch `json:"branches"`
	Notes    []string `json:"notes"`
	// Explain adds the time model's rules to the tables (--explain); the
	// JSON form always has them, in assumptions.model.
	Explain bool `json:"-"`
	// Gates are --max-outage, --max-task-seconds, --max-moves and
	// --max-rounds with what broke them; null when none was given.
	Gates *GateReport `json:"gates"`
}

// Head is what a plan is of, before its branches: the plan, its input, the
// event, the group's protocol, the assumptions, the starting counts and the
// members' labels. The full and the compact forms share it.
type Head struct {
	Plan        string                 `json:"plan"`
	Source      string                 `json:"source"`
	Event       string                 `json:"event"`
	Protocol    string                 `json:"protocol"`
	Assumptions Assumptions            `json:"assumptions"`
	Initial     []timeline.WorkerCount `json:"initial"`
	Labels      map[string]string      `json:"labels"` // member id -> short name used in tables and messages
}

// Assumptions lists the inputs of the time model, shown with every plan.
type Assumptions struct {
	RoundTimeMs      int64  `json:"round_time_ms"`
	SessionTimeoutMs int64  `json:"session_timeout_ms"`
	MaxDelayMs       int64  `json:"max_delay_ms"`
	RestartTimeMs    *int64 `json:"restart_time_ms"`
	ReturnsAfterMs   *int64 `json:"returns_after_ms"`
	Stop             *Stop  `json:"stop"`
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
	// changes still share the round (timeline/timemodel.go).
	CrashNoticedAfterMs int64 `json:"crash_noticed_after_ms"`
	JoinWindowMs        int64 `json:"join_window_ms"`
	// Settings lists every setting the plan ran with, its value and where
	// it came from (flag, worker file, context, cluster, default).
	Settings []timeline.SettingSource `json:"settings"`
	// Pending is the leader's state the plan starts from, reconstructed
	// from the input (null = a settled cluster: nothing held, no delay).
	Pending *cluster.PendingView `json:"pending"`
}

// Branch is one way the event can go, run under both protocol families.
type Branch struct {
	Name        string             `json:"name"`
	Cooperative *timeline.Timeline `json:"cooperative"`
	Eager       *timeline.Timeline `json:"eager"`
}
