package plan

import (
	"context"
	"fmt"
	"sort"

	"github.com/connectscope/connectscope/plan/assignor"
)

// runTimeline plays events on a fresh Sim seeded with the state, under one
// protocol, and summarises what happened.
func runTimeline(state ClusterState, opts PlanOptions, protocol string, events []Event) (*Timeline, error) {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return runTimelineCtx(ctx, state, opts, protocol, events, false)
}

// runTimelineCtx is runTimeline that stops between rounds when ctx is done.
// lite skips what only the tables show (piece names of every round), for
// the advisor, which reads only the summary.
func runTimelineCtx(ctx context.Context, state ClusterState, opts PlanOptions, protocol string, events []Event, lite bool) (*Timeline, error) {
	sim, err := assignor.NewSim(assignor.SimConfig{Protocol: protocol, MaxDelayMs: opts.MaxDelayMs, KafkaVersion: opts.KafkaVersion, JDK: opts.JDK})
	if err != nil {
		return nil, fmt.Errorf("starting the %s simulation: %w", protocol, err)
	}
	sim.SetConnectors(state.Connectors)
	for _, w := range state.Workers {
		if err := sim.Join(w.ID, w.Owned); err != nil {
			return nil, fmt.Errorf("seeding worker %s: %w", w.ID, err)
		}
	}
	model := TimeModel{RoundTimeMs: opts.RoundTimeMs, SessionTimeoutMs: opts.SessionTimeoutMs, MaxRounds: opts.MaxRounds}.withDefaults()
	tl := &Timeline{Protocol: protocol, Notes: []string{}}
	eager := protocol == "eager"
	delayedAt, followUpAt := int64(-1), int64(-1)
	var due string
	if !eager {
		sim.Sleep(1) // a deadline at plan time 0 must not read as "none" (0) to the assignor
		var st assignor.AssignorState
		st, delayedAt = leaderMemory(sim, state.Pending, opts.MaxDelayMs)
		sim.SetState(st)
		var ok bool
		if ok, due = state.Pending.roundDue(opts.MaxDelayMs); ok {
			followUpAt, delayedAt = 0, -1
		}
	}
	hosts := map[string]string{}
	for _, w := range sim.Members() {
		hosts[w] = w
	}
	startHost := map[pieceKey]string{}
	running := pieceSet{}
	for _, w := range sim.Members() {
		for _, k := range keysOf(sim.Owned(w)) {
			startHost[k] = w
			running[k] = true
		}
	}
	leader := state.Leader
	if leader == "" && len(state.Workers) > 0 {
		leader = state.Workers[0].ID
	}
	e := &engine{
		sim: sim, eager: eager, model: model, base: sim.Now(), leader: leader,
		hostOf: hosts, dead: map[string]bool{}, noticeAt: map[string]int64{}, label: state.Label,
		acct: newDowntime(configuredKeys(state.Connectors), running),
		ctx:  ctx, lite: lite,
		followUpAt: followUpAt, delayedAt: delayedAt, dueWhy: due,
	}
	if !lite {
		e.running, e.series = map[string]int{}, map[string][]Point{}
		for _, w := range sim.Members() {
			n := 0
			for _, k := range keysOf(sim.Owned(w)) {
				if !k.isConnector() && running[k] {
					n++
				}
			}
			e.running[w] = n
			e.series[w] = []Point{{TimeMs: 0, Tasks: n}}
		}
	}
	if err := e.run(events); err != nil {
		return nil, err
	}
	tl.Events = e.events
	tl.Rounds = e.rounds
	tl.Marks, tl.Running = e.marks, e.series
	tl.Notes = append(tl.Notes, e.notes...)
	if tl.Events == nil {
		tl.Events = []EventView{}
	}
	if tl.Rounds == nil {
		tl.Rounds = []RoundView{}
	}
	tl.Summary = summarize(e, startHost)
	tl.Outages = []Outage{}
	if !lite {
		tl.Outages = outages(e.acct, startHost)
	}
	return tl, nil
}

// summarize computes the summary once the engine is done.
func summarize(e *engine, startHost map[pieceKey]string) Summary {
	end := e.busyUntil
	if e.now > end {
		end = e.now
	}
	open := e.acct.finish(end)
	s := Summary{Rounds: len(e.rounds), EndMs: end, NotRunningAtEnd: []string{}, Final: []WorkerCount{}}
	for k := range e.acct.stopped {
		if k.isConnector() {
			s.ConnectorsStopped++
		} else {
			s.TasksStopped++
		}
	}
	s.ConnectorMsNotRunning, s.TaskMsNotRunning, s.LongestTaskOutageMs = e.acct.sums()
	members := append([]string(nil), e.sim.Members()...)
	sort.Strings(members)
	var cMin, cMax, tMin, tMax int
	for i, w := range members {
		owned := e.sim.Owned(w)
		c, t := len(owned.Connectors), len(owned.Tasks)
		wc := WorkerCount{Worker: w, Host: e.host(w), Connectors: c, Tasks: t}
		if !e.lite {
			wc.OwnedConnectors, wc.OwnedTasks = names(keysOf(owned))
		}
		s.Final = append(s.Final, wc)
		if i == 0 || c < cMin {
			cMin = c
		}
		if i == 0 || c > cMax {
			cMax = c
		}
		if i == 0 || t < tMin {
			tMin = t
		}
		if i == 0 || t > tMax {
			tMax = t
		}
		for _, k := range keysOf(owned) {
			if h, ok := startHost[k]; ok && h != e.host(w) && e.acct.configured[k] {
				if k.isConnector() {
					s.ConnectorsMoved++
				} else {
					s.TasksMoved++
				}
			}
		}
	}
	oc, ot := names(open)
	s.NotRunningAtEnd = append(oc, ot...)
	if len(open) == 0 {
		t := e.acct.lastStart
		s.AllRunningAfterMs = &t
	}
	if len(members) > 0 && cMax-cMin <= 1 && tMax-tMin <= 1 {
		t := lastChangeEnd(e.rounds)
		s.BalancedAfterMs = &t
	}
	return s
}

// lastChangeEnd is the end of the last round that changed any ownership
// (0 when none did).
func lastChangeEnd(rounds []RoundView) int64 {
	for i := len(rounds) - 1; i >= 0; i-- {
		if rounds[i].changed {
			return rounds[i].EndMs
		}
		for _, w := range rounds[i].Workers {
			if len(w.AssignedConnectors)+len(w.AssignedTasks)+len(w.RevokedConnectors)+len(w.RevokedTasks) > 0 {
				return rounds[i].EndMs
			}
		}
	}
	return 0
}

// outages lists every piece that was not running at some point, sorted.
func outages(d *downtime, startHost map[pieceKey]string) []Outage {
	keys := pieceSet{}
	for k := range d.intervals {
		keys[k] = true
	}
	out := []Outage{}
	for _, k := range keys.sorted() {
		kind := "task"
		if k.isConnector() {
			kind = "connector"
		}
		o := Outage{Piece: pieceName(k), Kind: kind, NotRunningMs: d.total[k], Intervals: d.intervals[k]}
		if h, ok := startHost[k]; ok {
			o.Host = &h
		}
		out = append(out, o)
	}
	return out
}

func pieceName(k pieceKey) string {
	if k.isConnector() {
		return k.Connector
	}
	return assignor.TaskID{Connector: k.Connector, Task: k.Task}.String()
}
