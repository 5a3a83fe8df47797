package timeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Where a worker's restart time came from (assumptions.settings[].source,
// beside SourceFlag and SourceDefault).
const (
	SourceRestartFile = "restart-times file" // measured by `inspect workers --restarts`: stop to healthy and back in the group
	SourceHistory     = "history"            // the status topic: stop to writing again, an upper bound
	// SourceRestartFileLongest is the file's longest restart of any
	// worker, for a worker it has none of its own.
	SourceRestartFileLongest = "restart-times file (longest of any worker)"
)

// SettingRestartTime names a worker's restart time in assumptions.settings
// (one entry per worker, with its HOST:PORT in worker).
const SettingRestartTime = "restart_time_ms"

// DefaultRestartMs is the restart time of a worker nothing measured, when a
// plan takes restart times from measurements and none of any worker exists
// either.
const DefaultRestartMs = 60_000

// RestartTime is one worker's restart time (stop to rejoin) and where it
// came from.
type RestartTime struct {
	Ms     int64
	Source string // SourceRestartFile, SourceHistory, SourceRestartFileLongest, SourceDefault
}

// RestartTimes are the per-worker restart times of a plan that restarts
// workers, keyed by member id (Options.Restarts; nil = the one time the
// plan was given).
type RestartTimes struct {
	Workers map[string]RestartTime
	// Missing are the HOST:PORT names of the workers nothing measured.
	Missing []string
	// FallbackMs is what they were given, FallbackSource where it came from.
	FallbackMs     int64
	FallbackSource string
}

// For is a worker's restart time (by member id), else def.
func (r *RestartTimes) For(member string, def int64) int64 {
	if r == nil {
		return def
	}
	if t, ok := r.Workers[member]; ok {
		return t.Ms
	}
	return def
}

// Longest is the longest restart time of any worker, else def.
func (r *RestartTimes) Longest(def int64) int64 {
	if r == nil || len(r.Workers) == 0 {
		return def
	}
	var m int64
	for _, t := range r.Workers {
		m = max(m, t.Ms)
	}
	return m
}

// RestartMeasurements are the restart times measured outside the plan, by
// HOST:PORT: a restart-times file (`inspect workers --restarts -o json`),
// and what the input's status topic shows (HistoryRestarts).
type RestartMeasurements struct {
	File      map[string]int64 // the file's longest complete restart per worker; nil = no file
	FileMaxMs *int64           // the file's longest of all (nil when none completed)
	History   map[string]int64 // the status topic's longest stop-to-writing-again per worker
}

// AutoRestartTimes gives each worker of state its measured restart time:
// the restart-times file's for that worker, else the history's, else the
// file's longest of any worker, else DefaultRestartMs. Workers are matched
// by their HOST:PORT name (cluster.State.Name).
func AutoRestartTimes(state cluster.State, m RestartMeasurements) *RestartTimes {
	r := &RestartTimes{Workers: map[string]RestartTime{}, FallbackMs: DefaultRestartMs, FallbackSource: SourceDefault}
	if m.FileMaxMs != nil {
		r.FallbackMs, r.FallbackSource = *m.FileMaxMs, SourceRestartFileLongest
	}
	namer := state.Namer()
	for _, w := range state.Workers {
		name := namer.Name(w.ID)
		if ms, ok := m.File[name]; ok {
			r.Workers[w.ID] = RestartTime{Ms: ms, Source: SourceRestartFile}
			continue
		}
		if ms, ok := m.History[name]; ok {
			r.Workers[w.ID] = RestartTime{Ms: ms, Source: SourceHistory}
			continue
		}
		r.Workers[w.ID] = RestartTime{Ms: r.FallbackMs, Source: r.FallbackSource}
		r.Missing = append(r.Missing, name)
	}
	sort.Strings(r.Missing)
	return r
}

// FallbackLine is the one line a command prints on stderr when workers had
// no measurement of their own ("" when every worker had).
func (r *RestartTimes) FallbackLine() string {
	if r == nil || len(r.Missing) == 0 {
		return ""
	}
	what := fmt.Sprintf("connectscope's default %s", format.Millis(r.FallbackMs))
	if r.FallbackSource == SourceRestartFileLongest {
		what = fmt.Sprintf("the longest restart the restart-times file measured, %s", format.Millis(r.FallbackMs))
	}
	names := strings.Join(r.Missing, ", ")
	if len(r.Missing) > 5 {
		names = fmt.Sprintf("%s and %d more", strings.Join(r.Missing[:5], ", "), len(r.Missing)-5)
	}
	return fmt.Sprintf("no restart time measured for %s (neither the restart-times file nor the status topic's history has one): assuming %s", names, what)
}

// HistoryRestarts is, per worker (HOST:PORT), the longest time the status
// topic shows between its stopping all its work and its writing again
// (inspect/history's restarts). An upper bound on its restart time: a
// worker writes only once it runs work again, and the delay may have held
// its work back after it rejoined.
func HistoryRestarts(d *views.Dataset) map[string]int64 {
	out := map[string]int64{}
	if d == nil || !d.Loaded() {
		return out
	}
	for _, r := range history.FromRecords(d.Topics.Status, d.StatusRecords()).Restarts {
		out[r.Worker] = max(out[r.Worker], r.AwayMs)
	}
	return out
}
