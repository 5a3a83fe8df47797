package plan

import "strconv"

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
