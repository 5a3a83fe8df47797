package whatif

import (
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/timeline"
)

func TestRollingRestartTakesEachWorkersRestartTime(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	opts := testOpts(60000)
	opts.Restarts = &timeline.RestartTimes{Workers: map[string]timeline.RestartTime{
		"w1": {Ms: 5000, Source: timeline.SourceRestartFile}, "w2": {Ms: 20000, Source: timeline.SourceHistory}, "w3": {Ms: 60000, Source: timeline.SourceDefault},
	}}
	res, err := RollingRestartPlan(st, opts, 1, StopClean, []string{"w1", "w2", "w3"})
	if err != nil {
		t.Fatal(err)
	}
	stopAt, away := map[string]int64{}, map[string]int64{}
	for _, ev := range res.Branches[0].Cooperative.Events {
		if ev.Worker == nil {
			continue
		}
		w := strings.SplitN(*ev.Worker, ".", 2)[0]
		switch ev.Kind {
		case "stop":
			stopAt[w] = ev.TimeMs
		case "return":
			away[w] = ev.TimeMs - stopAt[w]
		}
	}
	if away["w1"] != 5000 || away["w2"] != 20000 || away["w3"] != 60000 {
		t.Errorf("times away %v, want w1 5s, w2 20s, w3 60s", away)
	}
	if *res.Assumptions.RestartTimeMs != 60000 || !strings.Contains(res.Event, "measured") {
		t.Errorf("restart_time_ms %d, event %q", *res.Assumptions.RestartTimeMs, res.Event)
	}
	var got []string
	for _, s := range res.Assumptions.Settings {
		if s.Setting == timeline.SettingRestartTime {
			got = append(got, s.Worker+"="+s.Value+" "+s.Source)
		}
	}
	want := []string{"w1=5000 restart-times file", "w2=20000 history", "w3=60000 default"}
	if !slices.Equal(got, want) {
		t.Errorf("settings %v, want %v", got, want)
	}

	// Given as a flag: one entry, from the flag.
	res, err = RollingRestartPlan(st, testOpts(60000), 30000, StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := settingOf(t, res, timeline.SettingRestartTime); s.Value != "30000" || s.Source != timeline.SourceFlag || s.Worker != "" {
		t.Errorf("flag restart time: %+v", s)
	}
}

// A worker that comes back with --returns-after auto returns after its
// own measured time.
func TestLeaveReturnsAfterMeasuredTime(t *testing.T) {
	st := synth(t, "workers=3,connectors=6,tasks=2")
	opts := testOpts(60000)
	opts.Restarts = &timeline.RestartTimes{Workers: map[string]timeline.RestartTime{"w2": {Ms: 80000, Source: timeline.SourceRestartFile}}}
	back := int64(timeline.DefaultRestartMs)
	res, err := LeaveWorkersPlan(st, opts, LeaveOptions{Workers: []string{"w2"}, Stop: StopClean, ReturnsAfterMs: &back})
	if err != nil {
		t.Fatal(err)
	}
	if *res.Assumptions.ReturnsAfterMs != 80000 || !strings.Contains(res.Branches[0].Name, "after the delay") {
		t.Errorf("returns after %d, branch %q", *res.Assumptions.ReturnsAfterMs, res.Branches[0].Name)
	}
	if s := settingOf(t, res, timeline.SettingRestartTime); s.Worker != "w2" || s.Value != "80000" || s.Source != timeline.SourceRestartFile {
		t.Errorf("setting %+v", s)
	}
}
