package plan

import (
	"slices"
	"testing"
)

func settingOf(t *testing.T, res *PlanResult, name string) SettingSource {
	t.Helper()
	for _, s := range res.Assumptions.Settings {
		if s.Setting == name {
			return s
		}
	}
	t.Fatalf("no setting %s in %+v", name, res.Assumptions.Settings)
	return SettingSource{}
}

// Every plan says where each setting came from; a live plan that fell back
// to Kafka's defaults gets one line saying which.
func TestSettingsCarryTheirSource(t *testing.T) {
	st := synth(t, "workers=2,connectors=2")
	st.Protocol = "compatible"
	opts := PlanOptions{MaxDelayMs: DefaultMaxDelayMs, RoundTimeMs: DefaultRoundTimeMs,
		Sources: map[string]string{SettingMaxDelay: SourceWorkerFile}}
	res, err := JoinPlan(st, opts, []string{"w3"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]SettingSource{
		SettingMaxDelay:          {SettingMaxDelay, "300000", SourceWorkerFile},
		SettingSessionTimeout:    {SettingSessionTimeout, "10000", SourceDefault},
		SettingRoundTime:         {SettingRoundTime, "2000", SourceDefault},
		SettingProtocol:          {SettingProtocol, "compatible", SourceCluster},
		SettingJDK:               {SettingJDK, "17", SourceDefault},
		SettingHeartbeatInterval: {SettingHeartbeatInterval, "unknown", SourceDefault},
	} {
		if got := settingOf(t, res, name); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if got := DefaultsAssumed(res.Assumptions.Settings); !slices.Equal(got, []string{"session.timeout.ms=10000"}) {
		t.Errorf("defaults assumed %q, want the session timeout only", got)
	}

	opts = PlanOptions{MaxDelayMs: 60000, SessionTimeoutMs: 45000, RoundTimeMs: 500, Protocol: "eager", HeartbeatIntervalMs: 3000,
		Sources: map[string]string{SettingMaxDelay: SourceFlag, SettingSessionTimeout: SourceContext, SettingHeartbeatInterval: SourceCluster}}
	if res, err = JoinPlan(st, opts, []string{"w3"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]SettingSource{
		SettingMaxDelay:          {SettingMaxDelay, "60000", SourceFlag},
		SettingSessionTimeout:    {SettingSessionTimeout, "45000", SourceContext},
		SettingHeartbeatInterval: {SettingHeartbeatInterval, "3000", SourceCluster},
		SettingRoundTime:         {SettingRoundTime, "500", SourceGiven},
		SettingProtocol:          {SettingProtocol, "eager", SourceGiven},
	} {
		if got := settingOf(t, res, name); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if got := DefaultsAssumed(res.Assumptions.Settings); len(got) != 0 {
		t.Errorf("every cluster setting has a source, still: %q", got)
	}
}

// Settings.Options says where each setting came from: flag, the worker
// file (or the context naming it), else the default.
func TestOptionsRecordSources(t *testing.T) {
	given := int64(60000)
	s := Settings{MaxDelayMs: &given, Worker: map[string]string{"session.timeout.ms": "45000", "heartbeat.interval.ms": "3000"},
		WorkerPath: "w.properties", WorkerSource: SourceContext, Given: map[string]bool{SettingRoundTime: true}, RoundTimeMs: 500}
	opts, err := s.Options(ClusterState{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{SettingMaxDelay: SourceFlag, SettingSessionTimeout: SourceContext, SettingHeartbeatInterval: SourceContext, SettingRoundTime: SourceFlag}
	for k, v := range want {
		if opts.Sources[k] != v {
			t.Errorf("%s: source %q, want %q (all: %v)", k, opts.Sources[k], v, opts.Sources)
		}
	}
	if opts.HeartbeatIntervalMs != 3000 || opts.SessionTimeoutMs != 45000 {
		t.Errorf("values %+v", opts)
	}
	opts, _ = Settings{}.Options(ClusterState{})
	if opts.Sources[SettingMaxDelay] != SourceDefault || opts.HeartbeatIntervalMs != 0 {
		t.Errorf("nothing given: %v, heartbeat %d", opts.Sources, opts.HeartbeatIntervalMs)
	}
}
