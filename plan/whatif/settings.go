package whatif

import (
	"strconv"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// settingSources lists every setting the plan ran with and its source:
// opts.Sources where the caller said, the group for a protocol read from
// it, "default" for a value nobody gave.
func settingSources(state cluster.State, opts timeline.Options, a Assumptions) []timeline.SettingSource {
	src := func(name string, given bool) string {
		if s, ok := opts.Sources[name]; ok && s != "" {
			return s
		}
		if given {
			return timeline.SourceGiven
		}
		return timeline.SourceDefault
	}
	group, _ := timeline.EffectiveProtocol(state, opts)
	protoSource := src(timeline.SettingProtocol, opts.Protocol != "")
	if opts.Protocol == "" && state.Protocol != "" {
		protoSource = timeline.SourceCluster
	}
	out := []timeline.SettingSource{
		{Setting: timeline.SettingMaxDelay, Value: strconv.FormatInt(a.MaxDelayMs, 10), Source: src(timeline.SettingMaxDelay, opts.MaxDelayMs != timeline.DefaultMaxDelayMs)},
		{Setting: timeline.SettingSessionTimeout, Value: strconv.FormatInt(a.SessionTimeoutMs, 10), Source: src(timeline.SettingSessionTimeout, opts.SessionTimeoutMs > 0)},
		{Setting: timeline.SettingRoundTime, Value: strconv.FormatInt(a.RoundTimeMs, 10), Source: src(timeline.SettingRoundTime, opts.RoundTimeMs != timeline.DefaultRoundTime(opts.HeartbeatIntervalMs))},
		{Setting: timeline.SettingProtocol, Value: group, Source: protoSource},
		{Setting: timeline.SettingKafkaVersion, Value: a.KafkaVersion, Source: src(timeline.SettingKafkaVersion, opts.KafkaVersion.Known)},
		{Setting: timeline.SettingJDK, Value: strconv.Itoa(a.JDK), Source: src(timeline.SettingJDK, opts.JDK != 0 && opts.JDK != 17)},
	}
	hb := timeline.SettingSource{Setting: timeline.SettingHeartbeatInterval, Value: strconv.FormatInt(opts.HeartbeatIntervalMs, 10), Source: src(timeline.SettingHeartbeatInterval, opts.HeartbeatIntervalMs > 0)}
	if opts.HeartbeatIntervalMs <= 0 {
		// Not Kafka's 3 s assumed: the clock then gives every change its
		// own round (timeline/timemodel.go), which the model statements say.
		hb.Value, hb.Source = "unknown", timeline.SourceDefault
	}
	out = append(out, hb)
	return out
}
