package whatif

import (
	"strconv"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// RestartSettings are the restart-time entries of assumptions.settings:
// with measured times one per worker, in the state's member order (only
// those of members when given), else the one given time, from the flag.
func RestartSettings(state cluster.State, r *timeline.RestartTimes, givenMs int64, members ...string) []timeline.SettingSource {
	if r == nil {
		return []timeline.SettingSource{{Setting: timeline.SettingRestartTime, Value: strconv.FormatInt(givenMs, 10), Source: timeline.SourceFlag}}
	}
	only := map[string]bool{}
	for _, m := range members {
		only[m] = true
	}
	var out []timeline.SettingSource
	namer := state.Namer()
	for _, w := range state.Workers {
		t, ok := r.Workers[w.ID]
		if !ok || (len(only) > 0 && !only[w.ID]) {
			continue
		}
		out = append(out, timeline.SettingSource{Setting: timeline.SettingRestartTime, Worker: namer.Name(w.ID), Value: strconv.FormatInt(t.Ms, 10), Source: t.Source})
	}
	return out
}

// restartText is the restart time in the assumptions: one time, or the
// measured ones' longest.
func restartText(a Assumptions, ms int64) string {
	for _, s := range a.Settings {
		if s.Setting == timeline.SettingRestartTime && s.Worker != "" {
			return "restart time measured per worker (up to " + Millis(ms) + ")"
		}
	}
	return "restart time " + Millis(ms)
}
