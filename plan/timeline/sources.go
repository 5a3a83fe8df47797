package timeline

import (
	"sort"
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
	// Worker is the HOST:PORT a per-worker setting (a measured restart
	// time) belongs to; absent for settings of the whole group.
	Worker string `json:"worker,omitempty"`
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
