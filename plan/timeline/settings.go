package timeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Settings are a plan's assignor and time settings as given, before the
// precedence: each one given (a flag) beats the worker file's, which beats
// the default.
type Settings struct {
	KafkaVersion kafkaversion.Version
	JDK          int
	Protocol     Protocol // "" = the group's selected protocol, else the worker file's connect.protocol
	// MaxDelayMs, SessionTimeoutMs and HeartbeatIntervalMs are nil when
	// not given: the worker file's value, else the default (none for the
	// heartbeat: the clock then gives every change its own round).
	MaxDelayMs, SessionTimeoutMs, HeartbeatIntervalMs *int64
	RoundTimeMs                                       int64
	// WorkerPath and Worker are the first worker file and its properties
	// (nil without one); WorkerSource says where the file came from
	// (SourceWorkerFile, SourceContext; "" = SourceWorkerFile).
	WorkerPath   string
	Worker       map[string]string
	WorkerSource string
	// Given marks the settings given as flags that have no "not given"
	// value of their own (Setting* names: JDK, round time, version, protocol).
	Given map[string]bool
	Ctx   context.Context
}

// WorkerSettingError is a worker file's value a plan cannot use; Input names
// the setting that would override it.
type WorkerSettingError struct {
	Path, Key, Value string
	Input            string // SessionTimeout, MaxDelay, Protocol
	Want             string // what Kafka takes; "" = a whole number of milliseconds
}

func (e *WorkerSettingError) Error() string {
	want := e.Want
	if want == "" {
		want = "a whole number of milliseconds"
	}
	return fmt.Sprintf("%s: %s = %q: Kafka takes %s here; fix the file or give %s", e.Path, e.Key, e.Value, want, e.Input)
}

// Protocol is the group protocol a plan is asked to run, as connect.protocol
// names it: eager ("default" is Kafka's other name for it), compatible or
// sessioned; "" when not given. ParseProtocol makes one from text.
type Protocol string

// The group protocols.
const (
	ProtocolEager      Protocol = "eager"
	ProtocolDefault    Protocol = "default" // eager, by Kafka's older name
	ProtocolCompatible Protocol = "compatible"
	ProtocolSessioned  Protocol = "sessioned"
)

// ParseProtocol reads a protocol in any case; "" is none given. A name that
// is none is an error naming the input Protocol.
func ParseProtocol(s string) (Protocol, error) {
	switch p := Protocol(strings.ToLower(s)); p {
	case "", ProtocolEager, ProtocolDefault, ProtocolCompatible, ProtocolSessioned:
		return p, nil
	default:
		return "", field.Errorf("Protocol", ": want eager, compatible or sessioned, got %q", p)
	}
}

// Options resolves s for a plan starting from state. Errors name the input
// that is wrong (field.Error: KafkaVersion, JDK, MaxDelay) or the
// worker file's value (WorkerSettingError).
func (s Settings) Options(state cluster.State) (Options, error) {
	opts := Options{KafkaVersion: s.KafkaVersion, JDK: s.JDK, RoundTimeMs: s.RoundTimeMs, Ctx: s.Ctx, Sources: map[string]string{}}
	workerSource := s.WorkerSource
	if workerSource == "" {
		workerSource = SourceWorkerFile
	}
	for _, name := range []string{SettingKafkaVersion, SettingJDK, SettingRoundTime, SettingProtocol} {
		if s.Given[name] {
			opts.Sources[name] = SourceFlag
		}
	}
	opts.Protocol = string(s.Protocol)
	if s.Protocol == "" {
		// The worker file's, checked even where the group's selected
		// protocol wins: Kafka would not start a worker with that file.
		fromWorker := strings.TrimSpace(s.Worker[SettingProtocol])
		p, err := ParseProtocol(fromWorker)
		if err != nil {
			return opts, &WorkerSettingError{Path: s.WorkerPath, Key: SettingProtocol, Value: fromWorker, Input: "Protocol", Want: "eager, compatible or sessioned"}
		}
		if state.Protocol == "" && p != "" {
			opts.Protocol = string(p)
			opts.Sources[SettingProtocol] = workerSource
		}
		if g, err := ParseProtocol(state.Protocol); err != nil || string(g) != state.Protocol {
			// A group of a release (or a client) with a protocol no plan
			// knows (the broker matches names exactly): name it rather
			// than fail inside the simulator.
			return opts, field.Errorf("Protocol", " not given, and the group selected protocol %q, which no plan knows: give eager, compatible or sessioned", state.Protocol)
		}
	}
	for _, m := range []struct {
		into       *int64
		given      *int64
		input, key string
		def        int64
	}{
		{&opts.MaxDelayMs, s.MaxDelayMs, "MaxDelay", SettingMaxDelay, DefaultMaxDelayMs},
		{&opts.SessionTimeoutMs, s.SessionTimeoutMs, "SessionTimeout", SettingSessionTimeout, DefaultSessionTimeoutMs},
		{&opts.HeartbeatIntervalMs, s.HeartbeatIntervalMs, "Heartbeat", SettingHeartbeatInterval, 0},
	} {
		v, err := s.ms(m.given, m.input, m.key, m.def)
		if err != nil {
			return opts, err
		}
		*m.into = v
		switch {
		case m.given != nil:
			opts.Sources[m.key] = SourceFlag
		case strings.TrimSpace(s.Worker[m.key]) != "":
			opts.Sources[m.key] = workerSource
		default:
			opts.Sources[m.key] = SourceDefault
		}
	}
	if !s.Given[SettingRoundTime] && (s.RoundTimeMs == 0 || s.RoundTimeMs == DefaultRoundTimeMs) {
		opts.RoundTimeMs = DefaultRoundTime(opts.HeartbeatIntervalMs) // the calibrated default (timemodel.go)
	}
	// Each setting alone, so the error names the input that is wrong.
	for _, c := range []struct {
		input string
		cfg   assignor.SimConfig
	}{
		{"KafkaVersion", assignor.SimConfig{KafkaVersion: opts.KafkaVersion}},
		{"JDK", assignor.SimConfig{JDK: opts.JDK}},
		{"MaxDelay", assignor.SimConfig{MaxDelayMs: opts.MaxDelayMs, KafkaVersion: opts.KafkaVersion}},
	} {
		if _, err := assignor.NewSim(c.cfg); err != nil {
			return opts, field.Errorf(c.input, ": %v", err)
		}
	}
	return opts, nil
}

// ms is given when given, else the worker file's value of key in ms, else def.
func (s Settings) ms(given *int64, input, key string, def int64) (int64, error) {
	if given != nil {
		return *given, nil
	}
	fromWorker := strings.TrimSpace(s.Worker[key])
	if fromWorker == "" {
		return def, nil
	}
	v, err := strconv.ParseInt(fromWorker, 10, 64)
	if err != nil || v < 0 {
		return 0, &WorkerSettingError{Path: s.WorkerPath, Key: key, Value: fromWorker, Input: input}
	}
	return v, nil
}

// VersionBeyondVerified reports whether v names a release newer than the
// assignors this package was checked against: it replays the newest
// verified line's behaviour, which the caller should say.
func VersionBeyondVerified(v kafkaversion.Version) (bool, string) {
	return assignor.BeyondVerified(v), assignor.NewestVerifiedLine()
}

// PlanOptions are the assignor and time-model settings shared by every plan.
type Options struct {
	Protocol         string               // cooperative protocol of the group: compatible|sessioned ("" = from the state, else sessioned)
	MaxDelayMs       int64                // scheduled.rebalance.max.delay.ms
	KafkaVersion     kafkaversion.Version // unknown = current (3.9) behaviour
	JDK              int                  // 0 = 17
	RoundTimeMs      int64                // how long one round takes (join, sync, stop and start work)
	SessionTimeoutMs int64                // how long the group takes to notice a crashed worker
	// Restarts are per-worker restart times taken from measurements
	// (restarts.go); nil = the one time the plan was given.
	Restarts  *RestartTimes
	MaxRounds int // safety cap per timeline
	// HeartbeatIntervalMs is heartbeat.interval.ms (0 = not known): with
	// it, membership changes the group notices within one join window
	// share a round, and a crash is noticed session.timeout.ms after the
	// member's last heartbeat (timemodel.go).
	HeartbeatIntervalMs int64
	// FirstRejoinMs, measured, is when the members rejoined after the
	// plan's first membership change (a real run's logs): where their
	// heartbeats fell at the start, which the model cannot see. The first
	// join window then closes at that time instead of half a heartbeat
	// interval after it opened, and decides, as the real group did,
	// whether a fast return shares its stop's round. nil = the model.
	FirstRejoinMs *int64
	// ZeroAtMs is the moment (epoch ms) the plan's time 0 stands for: the
	// event's; 0 = when the input was read. It places the heartbeat phase
	// the input shows (NewTimeModel).
	ZeroAtMs int64
	// Sources says where each setting came from (Setting* -> Source*),
	// shown in assumptions.settings; a setting not listed is "default"
	// when left zero, "given" otherwise.
	Sources map[string]string
	// Ctx stops a long plan when it is cancelled (Ctrl-C); nil never does.
	Ctx context.Context
	// Detail is how much of every round and outage the plan keeps: what
	// its output shows (the zero value keeps everything).
	Detail Detail
	// NoPlot says no picture is drawn: the tasks running per host over time
	// (Timeline.Running), a point per worker and round, are not kept.
	NoPlot bool
	// StateAfterRound, when above 0, keeps every worker's holdings after
	// that round (Timeline.StateAfter): the whole state of one round of a
	// plan whose rounds list only what changed, or nothing.
	StateAfterRound int
}

// Detail says how much of each round and outage a what-if plan keeps. A
// roll of a thousand workers has thousands of rounds; keeping every
// worker's view of each, and every outage interval of every piece, is what
// made it cost gigabytes, though the summary table shows none of it.
type Detail int

// Details.
const (
	// DetailFull keeps every worker of every round and every outage
	// interval: the JSON form, -o wide, mermaid and --jq.
	DetailFull Detail = iota
	// DetailCompact keeps, per round, the cooperative workers it told
	// something and its totals, and per piece its outages summed (the
	// compact JSON form).
	DetailCompact
	// DetailSummary keeps the summary only (the table and the pictures).
	DetailSummary
)

// effectiveProtocol is the cooperative protocol to run and the group's own.
func EffectiveProtocol(state cluster.State, opts Options) (group, cooperative string) {
	group = opts.Protocol
	if group == "" {
		group = state.Protocol
	}
	switch group {
	case "default":
		group = "eager"
	case "":
		group = "sessioned"
	}
	cooperative = group
	if cooperative == "eager" {
		cooperative = "sessioned"
	}
	return group, cooperative
}
