package timeline

import (
	"context"
	"fmt"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Run plays events on a fresh Sim seeded with the state, under one
// protocol, and summarises what happened.
func Run(state cluster.State, opts Options, protocol string, events []Event) (*Timeline, error) {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return RunContext(ctx, state, opts, protocol, events, false)
}

// RunContext is runTimeline that stops between rounds when ctx is done.
// lite skips what only the tables show (piece names of every round), for
// the advisor, which reads only the summary.
func RunContext(ctx context.Context, state cluster.State, opts Options, protocol string, events []Event, lite bool) (*Timeline, error) {
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
	model := TimeModel{RoundTimeMs: opts.RoundTimeMs, SessionTimeoutMs: opts.SessionTimeoutMs, MaxRounds: opts.MaxRounds, HeartbeatIntervalMs: opts.HeartbeatIntervalMs}.WithDefaults()
	tl := &Timeline{Protocol: protocol, Notes: []string{}}
	eager := protocol == "eager"
	delayedAt, followUpAt := int64(-1), int64(-1)
	var due string
	if !eager {
		sim.Sleep(1) // a deadline at plan time 0 must not read as "none" (0) to the assignor
		var st assignor.AssignorState
		st, delayedAt = cluster.LeaderMemory(sim, state.Pending, opts.MaxDelayMs)
		sim.SetState(st)
		var ok bool
		if ok, due = state.Pending.RoundDue(opts.MaxDelayMs); ok {
			followUpAt, delayedAt = 0, -1
		}
	}
	// Every piece the timeline can meet: configured or owned at the start.
	configured := cluster.ConfiguredKeys(state.Connectors)
	universe := append([]cluster.PieceKey{}, configured...)
	for _, w := range state.Workers {
		universe = append(universe, cluster.KeysOf(w.Owned)...)
	}
	ix := newPieceIndex(universe)
	leader := state.Leader
	if leader == "" && len(state.Workers) > 0 {
		leader = state.Workers[0].ID
	}
	e := &engine{
		sim: sim, eager: eager, model: model, base: sim.Now(), leader: leader, ix: ix,
		members: map[string]*engineMember{}, hostIdx: map[string]int32{}, noticeAt: map[string]int64{},
		label: memoLabel(state), ctx: ctx, lite: lite,
		followUpAt: followUpAt, delayedAt: delayedAt, dueWhy: due, windowOpen: -1, windowClose: -1,
	}
	e.startHost = make([]int32, ix.len())
	for i := range e.startHost {
		e.startHost[i] = -1
	}
	running := make([]bool, ix.len())
	for _, w := range state.Workers {
		m := e.addMember(w.ID, w.ID, sortedIDs(ix.ofPieces(w.Owned, nil)))
		for _, id := range m.owned {
			e.startHost[id] = m.host
			running[id] = true
		}
	}
	cfgIDs := make([]int32, len(configured))
	for i, k := range configured {
		cfgIDs[i] = ix.lookup(k)
	}
	e.acct = newDowntime(ix.len(), cfgIDs, func(id int32) bool { return running[id] }, !lite)
	if !lite {
		for _, m := range e.joined {
			_, n := ix.count(m.owned)
			e.running[m.host] = n
			e.series[m.host] = []Point{{TimeMs: 0, Tasks: n}}
		}
	}
	if err := e.run(events); err != nil {
		return nil, err
	}
	tl.Events = e.events
	tl.Rounds = e.rounds
	tl.Marks = e.marks
	if !lite {
		tl.Running = map[string][]Point{}
		for h, pts := range e.series {
			if pts != nil {
				tl.Running[e.hosts[h]] = pts
			}
		}
	}
	tl.Notes = append(tl.Notes, e.notes...)
	if tl.Events == nil {
		tl.Events = []EventView{}
	}
	if tl.Rounds == nil {
		tl.Rounds = []RoundView{}
	}
	tl.Summary = summarize(e)
	tl.Outages = []Outage{}
	if !lite {
		tl.Outages = outages(e)
	}
	return tl, nil
}

// memoLabel is state.Label remembered per member: a label is looked up for
// every event, and finding one scans the workers.
func memoLabel(state cluster.State) func(string) string {
	seen := map[string]string{}
	return func(m string) string {
		l, ok := seen[m]
		if !ok {
			l = state.Label(m)
			seen[m] = l
		}
		return l
	}
}

// summarize computes the summary once the engine is done.
func summarize(e *engine) Summary {
	end := e.busyUntil
	if e.now > end {
		end = e.now
	}
	open := e.acct.finish(end)
	s := Summary{Rounds: len(e.rounds), EndMs: end, NotRunningAtEnd: []string{}, Final: []WorkerCount{}}
	for id, st := range e.acct.stopped {
		if !st {
			continue
		}
		if e.ix.isConnector(int32(id)) {
			s.ConnectorsStopped++
		} else {
			s.TasksStopped++
		}
	}
	s.ConnectorMsNotRunning, s.TaskMsNotRunning, s.LongestTaskOutageMs = e.acct.sums(e.ix)
	var cMin, cMax, tMin, tMax int
	for i, m := range e.sorted {
		c, t := m.conns, m.tasks
		wc := WorkerCount{Worker: m.id, Host: e.hosts[m.host], Connectors: c, Tasks: t}
		if !e.lite {
			wc.OwnedConnectors, wc.OwnedTasks = e.ix.namesOf(m.owned)
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
		for _, id := range m.owned {
			if h := e.startHost[id]; h >= 0 && e.hosts[h] != e.hosts[m.host] && e.acct.configured[id] {
				if e.ix.isConnector(id) {
					s.ConnectorsMoved++
				} else {
					s.TasksMoved++
				}
			}
		}
	}
	oc, ot := e.ix.namesOf(open)
	s.NotRunningAtEnd = append(oc, ot...)
	if len(open) == 0 {
		t := e.acct.lastStart
		s.AllRunningAfterMs = &t
	}
	if len(e.sorted) > 0 && cMax-cMin <= 1 && tMax-tMin <= 1 {
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
func outages(e *engine) []Outage {
	out := []Outage{}
	d := e.acct
	for id, iv := range d.intervals() {
		if len(iv) == 0 {
			continue
		}
		kind := "task"
		if e.ix.isConnector(int32(id)) {
			kind = "connector"
		}
		o := Outage{Piece: e.ix.name(int32(id)), Kind: kind, NotRunningMs: d.total[id], Intervals: iv}
		if h := e.startHost[id]; h >= 0 {
			host := e.hosts[h]
			o.Host = &host
		}
		out = append(out, o)
	}
	return out
}

func PieceName(k cluster.PieceKey) string {
	if k.IsConnector() {
		return k.Connector
	}
	return assignor.TaskID{Connector: k.Connector, Task: k.Task}.String()
}
