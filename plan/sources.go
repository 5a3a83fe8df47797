package plan

import (
	"sort"
	"strconv"
)

// Where a plan's setting came from (assumptions.settings[].source).
const (
	SourceFlag       = "flag"        // given on the command line
	SourceWorkerFile = "worker file" // a --worker-config file
	SourceContext    = "context"     // the named cluster's context
	SourceCluster    = "cluster"     // learned from the cluster (the group, its history)
	SourceDefault    = "default"     // nothing said: Kafka's default (connectscope's for the round time)
	SourceGiven      = "given"       // set by a caller of the package that did not say where from
)

// Names of the settings a plan reports with their source.
const (
	SettingMaxDelay          = "scheduled.rebalance.max.delay.ms"
	SettingSessionTimeout    = "session.timeout.ms"
	SettingHeartbeatInterval = "heartbeat.interval.ms"
	SettingProtocol          = "connect.protocol"
	SettingRoundTime         = "round_time_ms"
	SettingKafkaVersion      = "kafka_version"
	SettingJDK               = "jdk"
)

// SettingSource is one setting a plan used, its value and where it came from.
type SettingSource struct {
	Setting string `json:"setting"`
	Value   string `json:"value"`
	Source  string `json:"source"`
}

// settingSources lists every setting the plan ran with and its source:
// opts.Sources where the caller said, the group for a protocol read from
// it, "default" for a value nobody gave.
func settingSources(state ClusterState, opts PlanOptions, a Assumptions) []SettingSource {
	src := func(name string, given bool) string {
		if s, ok := opts.Sources[name]; ok && s != "" {
			return s
		}
		if given {
			return SourceGiven
		}
		return SourceDefault
	}
	group, _ := effectiveProtocol(state, opts)
	protoSource := src(SettingProtocol, opts.Protocol != "")
	if opts.Protocol == "" && state.Protocol != "" {
		protoSource = SourceCluster
	}
	out := []SettingSource{
		{SettingMaxDelay, strconv.FormatInt(a.MaxDelayMs, 10), src(SettingMaxDelay, opts.MaxDelayMs != DefaultMaxDelayMs)},
		{SettingSessionTimeout, strconv.FormatInt(a.SessionTimeoutMs, 10), src(SettingSessionTimeout, opts.SessionTimeoutMs > 0)},
		{SettingRoundTime, strconv.FormatInt(a.RoundTimeMs, 10), src(SettingRoundTime, opts.RoundTimeMs != DefaultRoundTime(opts.HeartbeatIntervalMs))},
		{SettingProtocol, group, protoSource},
		{SettingKafkaVersion, a.KafkaVersion, src(SettingKafkaVersion, opts.KafkaVersion.Known)},
		{SettingJDK, strconv.Itoa(a.JDK), src(SettingJDK, opts.JDK != 0 && opts.JDK != 17)},
	}
	hb := SettingSource{SettingHeartbeatInterval, strconv.FormatInt(opts.HeartbeatIntervalMs, 10), src(SettingHeartbeatInterval, opts.HeartbeatIntervalMs > 0)}
	if opts.HeartbeatIntervalMs <= 0 {
		// Not Kafka's 3 s assumed: the clock then gives every change its
		// own round (timemodel.go), which the model statements say.
		hb.Value, hb.Source = "unknown", SourceDefault
	}
	out = append(out, hb)
	return out
}

// DefaultsAssumed lists, as SETTING=VALUE, the settings the cluster
// decides (its delay, session timeout, heartbeat) that a plan ran with
// Kafka's defaults for: a live plan says so in one line on stderr. Kafka
// version, JDK and round time are connectscope's own choices, never listed.
func DefaultsAssumed(settings []SettingSource) []string {
	var parts []string
	for _, s := range settings {
		switch s.Setting {
		case SettingMaxDelay, SettingSessionTimeout, SettingHeartbeatInterval:
			if s.Source == SourceDefault && s.Value != "unknown" {
				parts = append(parts, s.Setting+"="+s.Value)
			}
		}
	}
	sort.Strings(parts)
	return parts
}
