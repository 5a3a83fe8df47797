package whatif

import (
	"slices"
	"testing"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

func settingOf(t *testing.T, res *PlanResult, name string) timeline.SettingSource {
	t.Helper()
	for _, s := range res.Assumptions.Settings {
		if s.Setting == name {
			return s
		}
	}
	t.Fatalf("no setting %s in %+v", name, res.Assumptions.Settings)
	return timeline.SettingSource{}
}

// Every plan says where each setting came from; a live plan that fell back
// to Kafka's defaults gets one line saying which.
func TestSettingsCarryTheirSource(t *testing.T) {
	st := synth(t, "workers=2,connectors=2")
	st.Protocol = "compatible"
	opts := timeline.Options{MaxDelayMs: timeline.DefaultMaxDelayMs, RoundTimeMs: timeline.DefaultRoundTimeMs,
		Sources: map[string]string{timeline.SettingMaxDelay: timeline.SourceWorkerFile}}
	res, err := JoinPlan(st, opts, []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]timeline.SettingSource{
		timeline.SettingMaxDelay:          {Setting: timeline.SettingMaxDelay, Value: "300000", Source: timeline.SourceWorkerFile},
		timeline.SettingSessionTimeout:    {Setting: timeline.SettingSessionTimeout, Value: "10000", Source: timeline.SourceDefault},
		timeline.SettingRoundTime:         {Setting: timeline.SettingRoundTime, Value: "2000", Source: timeline.SourceDefault},
		timeline.SettingProtocol:          {Setting: timeline.SettingProtocol, Value: "compatible", Source: timeline.SourceCluster},
		timeline.SettingJDK:               {Setting: timeline.SettingJDK, Value: "17", Source: timeline.SourceDefault},
		timeline.SettingHeartbeatInterval: {Setting: timeline.SettingHeartbeatInterval, Value: "unknown", Source: timeline.SourceDefault},
	} {
		if got := settingOf(t, res, name); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if got := timeline.DefaultsAssumed(res.Assumptions.Settings); !slices.Equal(got, []string{"session.timeout.ms=10000"}) {
		t.Errorf("defaults assumed %q, want the session timeout only", got)
	}

	opts = timeline.Options{MaxDelayMs: 60000, SessionTimeoutMs: 45000, RoundTimeMs: 500, Protocol: "eager", HeartbeatIntervalMs: 3000,
		Sources: map[string]string{timeline.SettingMaxDelay: timeline.SourceFlag, timeline.SettingSessionTimeout: timeline.SourceContext, timeline.SettingHeartbeatInterval: timeline.SourceCluster}}
	if res, err = JoinPlan(st, opts, []string{"w3"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]timeline.SettingSource{
		timeline.SettingMaxDelay:          {Setting: timeline.SettingMaxDelay, Value: "60000", Source: timeline.SourceFlag},
		timeline.SettingSessionTimeout:    {Setting: timeline.SettingSessionTimeout, Value: "45000", Source: timeline.SourceContext},
		timeline.SettingHeartbeatInterval: {Setting: timeline.SettingHeartbeatInterval, Value: "3000", Source: timeline.SourceCluster},
		timeline.SettingRoundTime:         {Setting: timeline.SettingRoundTime, Value: "500", Source: timeline.SourceGiven},
		timeline.SettingProtocol:          {Setting: timeline.SettingProtocol, Value: "eager", Source: timeline.SourceGiven},
	} {
		if got := settingOf(t, res, name); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if got := timeline.DefaultsAssumed(res.Assumptions.Settings); len(got) != 0 {
		t.Errorf("every cluster setting has a source, still: %q", got)
	}
}

// Settings.Options says where each setting came from: flag, the worker
// file (or the context naming it), else the default.
func TestOptionsRecordSources(t *testing.T) {
	given := int64(60000)
	s := timeline.Settings{MaxDelayMs: &given, Worker: map[string]string{"session.timeout.ms": "45000", "heartbeat.interval.ms": "3000"},
		WorkerPath: "w.properties", WorkerSource: timeline.SourceContext, Given: map[string]bool{timeline.SettingRoundTime: true}, RoundTimeMs: 500}
	opts, err := s.Options(cluster.State{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{timeline.SettingMaxDelay: timeline.SourceFlag, timeline.SettingSessionTimeout: timeline.SourceContext, timeline.SettingHeartbeatInterval: timeline.SourceContext, timeline.SettingRoundTime: timeline.SourceFlag}
	for k, v := range want {
		if opts.Sources[k] != v {
			t.Errorf("%s: source %q, want %q (all: %v)", k, opts.Sources[k], v, opts.Sources)
		}
	}
	if opts.HeartbeatIntervalMs != 3000 || opts.SessionTimeoutMs != 45000 {
		t.Errorf("values %+v", opts)
	}
	opts, _ = timeline.Settings{}.Options(cluster.State{})
	if opts.Sources[timeline.SettingMaxDelay] != timeline.SourceDefault || opts.HeartbeatIntervalMs != 0 {
		t.Errorf("nothing given: %v, heartbeat %d", opts.Sources, opts.HeartbeatIntervalMs)
	}
}
