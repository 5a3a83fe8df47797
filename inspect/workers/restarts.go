package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/source/jsonfile"
)

// RestartTimes is what a restart watch measured, and the file format plans
// read (`--restart-time auto`): version 1, one entry per restart seen, and
// per worker the longest restart measured. Times are Unix milliseconds.
type RestartTimes struct {
	Version    int       `json:"version"` // 1
	Group      string    `json:"group"`
	StartedMs  int64     `json:"started_at_ms"`
	EndedMs    int64     `json:"ended_at_ms"`
	IntervalMs int64     `json:"interval_ms"` // how often workers were looked at: each time is late by up to this
	Restarts   []Restart `json:"restarts"`
	// Workers maps HOST:PORT to the longest complete restart measured.
	Workers map[string]int64 `json:"workers"`
	MaxMs   *int64           `json:"max_ms"` // the longest of all; null when none completed
}

// Restart is one worker going down and coming back.
type Restart struct {
	Worker   string `json:"worker"` // HOST:PORT
	DownAtMs int64  `json:"down_at_ms"`
	// HealthyAtMs is the first healthy GET /health after it went down
	// (null before 3.9 or until it answers); RejoinedAtMs the first look at
	// which the group holds it again under a new member id.
	HealthyAtMs  *int64 `json:"healthy_at_ms"`
	RejoinedAtMs *int64 `json:"rejoined_at_ms"`
	HealthMs     *int64 `json:"health_ms"` // healthy − down
	JoinMs       *int64 `json:"join_ms"`   // rejoined − down
	// RestartMs is the later of the two: the worker is back when it is both
	// healthy and in the group. Null until it is.
	RestartMs *int64 `json:"restart_ms"`
	// Stages are the distinct /health stages it reported while starting.
	Stages []string `json:"stages"`
}

// Complete reports whether the worker is back (healthy where /health
// exists, and in the group).
func (r *Restart) Complete() bool { return r.RestartMs != nil }

// Look is one observation of the cluster: who is in the group under which
// member id, and each worker's /health status ("" when it did not answer,
// "unsupported" before 3.9).
type Look struct {
	AtMs    int64
	Members map[string]string // HOST:PORT → member id
	Health  map[string]string // HOST:PORT → status
	Stage   map[string]string // HOST:PORT → stage while starting
}

// Tracker turns looks into restarts. Not safe for concurrent use.
type Tracker struct {
	seen    map[string]string   // worker → member id when last healthy and in the group
	open    map[string]*Restart // worker → restart under way
	noHC    map[string]bool     // workers without /health
	results []Restart
}

// NewTracker starts tracking.
func NewTracker() *Tracker {
	return &Tracker{seen: map[string]string{}, open: map[string]*Restart{}, noHC: map[string]bool{}}
}

// Observe feeds one look and returns the restarts that completed with it.
func (t *Tracker) Observe(l Look) []Restart {
	var done []Restart
	workers := map[string]bool{}
	for w := range l.Members {
		workers[w] = true
	}
	for w := range l.Health {
		workers[w] = true
	}
	for w := range t.seen {
		workers[w] = true
	}
	for w := range t.open {
		workers[w] = true
	}
	for _, w := range slices.Sorted(maps.Keys(workers)) {
		id, member := l.Members[w]
		h := l.Health[w]
		if h == "unsupported" {
			t.noHC[w] = true
		}
		up := member && (h == "healthy" || (t.noHC[w] && h != ""))
		r := t.open[w]
		if r == nil {
			prev, known := t.seen[w]
			switch {
			case up && (!known || prev == id):
				t.seen[w] = id
			case known && (!up || prev != id):
				// Down now, or back under a new id between two looks.
				r = &Restart{Worker: w, DownAtMs: l.AtMs, Stages: []string{}}
				t.open[w] = r
			}
		}
		if r == nil {
			continue
		}
		if s := l.Stage[w]; h == "starting" && s != "" && (len(r.Stages) == 0 || r.Stages[len(r.Stages)-1] != s) {
			r.Stages = append(r.Stages, s)
		}
		if r.HealthyAtMs == nil && h == "healthy" && l.AtMs > r.DownAtMs {
			at, d := l.AtMs, l.AtMs-r.DownAtMs
			r.HealthyAtMs, r.HealthMs = &at, &d
		}
		if r.RejoinedAtMs == nil && member && id != t.seen[w] {
			at, d := l.AtMs, l.AtMs-r.DownAtMs
			r.RejoinedAtMs, r.JoinMs = &at, &d
		}
		if r.RejoinedAtMs != nil && (r.HealthyAtMs != nil || t.noHC[w]) {
			d := *r.JoinMs
			if r.HealthMs != nil && *r.HealthMs > d {
				d = *r.HealthMs
			}
			r.RestartMs = &d
			t.results = append(t.results, *r)
			done = append(done, *r)
			delete(t.open, w)
			t.seen[w] = id
		}
	}
	return done
}

// Result is what was measured, with the restarts still under way at the
// end (restart_ms null).
func (t *Tracker) Result(group string, startedMs, endedMs, intervalMs int64) *RestartTimes {
	rt := &RestartTimes{Version: 1, Group: group, StartedMs: startedMs, EndedMs: endedMs,
		IntervalMs: intervalMs, Restarts: append([]Restart{}, t.results...), Workers: map[string]int64{}}
	for _, r := range t.open {
		rt.Restarts = append(rt.Restarts, *r)
	}
	sort.SliceStable(rt.Restarts, func(i, j int) bool {
		if rt.Restarts[i].DownAtMs != rt.Restarts[j].DownAtMs {
			return rt.Restarts[i].DownAtMs < rt.Restarts[j].DownAtMs
		}
		return rt.Restarts[i].Worker < rt.Restarts[j].Worker
	})
	for _, r := range rt.Restarts {
		if r.RestartMs == nil {
			continue
		}
		if *r.RestartMs > rt.Workers[r.Worker] {
			rt.Workers[r.Worker] = *r.RestartMs
		}
		if rt.MaxMs == nil || *r.RestartMs > *rt.MaxMs {
			m := *r.RestartMs
			rt.MaxMs = &m
		}
	}
	return rt
}

// Describe reads the group once (the commands pass a live DescribeGroups).
type Describe func(ctx context.Context) (*group.MembersResult, error)

// WatchRestarts looks at the group and every member's /health each
// interval until ctx ends, calling onRestart for each restart that
// completes, and returns everything measured. Workers that leave the group
// stay asked at their last URL, so a restarting worker is followed through
// its absence. A failed group read skips that look.
func WatchRestarts(ctx context.Context, c *rest.Client, describe Describe, interval time.Duration, onRestart func(Restart)) *RestartTimes {
	t := NewTracker()
	start := time.Now()
	urls := map[string]rest.Target{} // the last URL of each worker seen, metadata's before a guess
	groupID := ""
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if m, err := describe(ctx); err == nil && m != nil {
			groupID = m.Group
			look := Look{Members: map[string]string{}, Health: map[string]string{}, Stage: map[string]string{}}
			for _, mv := range m.Members {
				look.Members[group.WorkerID(mv)] = mv.MemberID
			}
			ts, _ := Targets(m)
			for _, t := range ts {
				if old, ok := urls[t.Worker]; t.URL != "" && (!ok || !t.Guessed || old.Guessed) {
					urls[t.Worker] = t
				}
			}
			var targets []rest.Target
			for _, t := range urls {
				targets = append(targets, t)
			}
			for _, info := range c.Workers(ctx, targets, rest.Calls{Health: true}) {
				if info.Health != nil {
					look.Health[info.Worker] = info.Health.Status
					look.Stage[info.Worker] = info.Health.Stage
				}
			}
			look.AtMs = time.Now().UnixMilli()
			if ctx.Err() == nil {
				for _, r := range t.Observe(look) {
					if onRestart != nil {
						onRestart(r)
					}
				}
			}
		}
		select {
		case <-ctx.Done():
			return t.Result(groupID, start.UnixMilli(), time.Now().UnixMilli(), interval.Milliseconds())
		case <-tick.C:
		}
	}
}

// MaxRestartFile bounds a restart-times file read.
const MaxRestartFile = 16 << 20

// ParseRestartTimes reads a restart-times file (what `inspect workers
// --restarts` prints with -o json), for plans' --restart-time auto: version
// 1 only, unknown fields ignored, negative times refused.
func ParseRestartTimes(data []byte) (*RestartTimes, error) {
	if len(data) > MaxRestartFile {
		return nil, fmt.Errorf("restart-times file larger than %d bytes", MaxRestartFile)
	}
	var rt RestartTimes
	if err := json.Unmarshal(data, &rt); err != nil {
		return nil, fmt.Errorf("restart-times file: not the JSON `inspect workers --restarts -o json` writes: %w", err)
	}
	// encoding/json keeps the last of a key given twice: a worker given
	// twice in a file edited by hand would plan with whichever came last.
	var dup *jsonfile.DuplicateKeyError
	if err := jsonfile.Check(data); errors.As(err, &dup) {
		return nil, fmt.Errorf("restart-times file: %w: give it once", err)
	}
	if rt.Version != 1 {
		return nil, fmt.Errorf("restart-times file version %d: this connectscope reads version 1", rt.Version)
	}
	for w, ms := range rt.Workers {
		if ms < 0 {
			return nil, fmt.Errorf("restart-times file: worker %q has a negative restart time %d", w, ms)
		}
	}
	if rt.MaxMs != nil && *rt.MaxMs < 0 {
		return nil, fmt.Errorf("restart-times file: negative max_ms %d", *rt.MaxMs)
	}
	if rt.Workers == nil {
		rt.Workers = map[string]int64{}
	}
	return &rt, nil
}

// RestartFor is the measured restart time of a worker (HOST:PORT), else
// the longest measured for any worker; ok is false when nothing completed.
func (r *RestartTimes) RestartFor(worker string) (ms int64, ok bool) {
	if ms, ok := r.Workers[worker]; ok {
		return ms, true
	}
	if r.MaxMs != nil {
		return *r.MaxMs, true
	}
	return 0, false
}
