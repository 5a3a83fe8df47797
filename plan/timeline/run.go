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
	seed, err := NewSeed(state, opts, protocol)
	if err != nil {
		return nil, err
	}
	return seed.run(ctx, events, lite, nil, false)
}

// Seed is a timeline's starting point: the simulator seeded with
// the state and the engine's view of it. The advisor runs a hundred
// timelines from one state; building this once and copying it for each
// was a fifth of a 100-worker sweep.
type Seed struct {
	state      cluster.State
	protocol   string
	sim        *assignor.Sim
	model      TimeModel
	delayedAt  int64
	followUpAt int64
	due        string
	ix         *pieceIndex
	leader     string
	owned      []idList // by state.Workers
	running    []bool   // by piece id
	cfgIDs     []int32
	detail     Detail // what the output shows of each round and outage
	plot       bool   // a picture is drawn: keep the running series
	stateAfter int    // keep the holdings after this round (0: none)
}

// NewSeed seeds a simulator with the state under one protocol and the
// options' max delay.
func NewSeed(state cluster.State, opts Options, protocol string) (*Seed, error) {
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
	s := &Seed{state: state, protocol: protocol, sim: sim, delayedAt: -1, followUpAt: -1, detail: opts.Detail, plot: !opts.NoPlot, stateAfter: opts.StateAfterRound,
		model: NewTimeModel(state, opts)}
	if protocol != "eager" {
		sim.Sleep(1) // a deadline at plan time 0 must not read as "none" (0) to the assignor
		var st assignor.AssignorState
		pending := state.Pending.From(opts.ZeroAtMs)
		st, s.delayedAt = cluster.LeaderMemory(sim, pending, opts.MaxDelayMs)
		sim.SetState(st)
		var ok bool
		if ok, s.due = pending.RoundDue(opts.MaxDelayMs); ok {
			s.followUpAt, s.delayedAt = 0, -1
		}
	}
	// Every piece the timeline can meet: configured or owned at the start.
	configured := cluster.ConfiguredKeys(state.Connectors)
	universe := append([]cluster.PieceKey{}, configured...)
	for _, w := range state.Workers {
		universe = append(universe, cluster.KeysOf(w.Owned)...)
	}
	s.ix = newPieceIndex(universe)
	s.leader = state.Leader
	if s.leader == "" && len(state.Workers) > 0 {
		s.leader = state.Workers[0].ID
	}
	s.running = make([]bool, s.ix.len())
	for _, w := range state.Workers {
		owned := sortedIDs(s.ix.ofPieces(w.Owned, nil))
		s.owned = append(s.owned, owned)
		for _, id := range owned {
			s.running[id] = true
		}
	}
	s.cfgIDs = make([]int32, len(configured))
	for i, k := range configured {
		s.cfgIDs[i] = s.ix.lookup(k)
	}
	return s, nil
}

// RunCopy plays events on a copy of the seed, summary only (a lite
// timeline, as RunContext's): copies may run side by side, and the seed
// again and again. cutoff, when set, is asked before every round and ends
// the run with ErrCutOff once the task-ms not running so far pass it.
func (s *Seed) RunCopy(ctx context.Context, events []Event, cutoff func() int64) (*Timeline, error) {
	return s.run(ctx, events, true, cutoff, true)
}

// run plays events from the seed, on a copy when shared.
func (s *Seed) run(ctx context.Context, events []Event, lite bool, cutoff func() int64, shared bool) (*Timeline, error) {
	sim, ix := s.sim, s.ix
	if shared {
		sim, ix = sim.Clone(), ix.clone()
	}
	state := s.state
	tl := &Timeline{Protocol: s.protocol, Notes: []string{}}
	e := &engine{
		sim: sim, eager: s.protocol == "eager", model: s.model, base: sim.Now(), leader: s.leader, ix: ix,
		members: map[string]*engineMember{}, noticeAt: map[string]int64{},
		label: memoLabel(state), ctx: ctx, lite: lite, cutoff: cutoff, detail: s.detail, plot: !lite && s.plot,
		followUpAt: s.followUpAt, delayedAt: s.delayedAt, dueWhy: s.due, windowOpen: -1, windowClose: -1, phase: noPhase,
		deckID: -1, pendingCycle: -1, stateAfter: s.stateAfter,
	}
	// Eager rounds dealt as places when nothing shows every piece of every
	// round: no round rows with names, no spans, no running series.
	if s.model.StartPhaseMs != nil {
		e.phase = *s.model.StartPhaseMs
	}
	e.lazy = e.eager && (lite || s.detail != DetailFull) && !e.plot
	e.startHost = make([]int32, ix.len())
	for i := range e.startHost {
		e.startHost[i] = -1
	}
	for i, w := range state.Workers {
		m := e.addMember(w.ID, w.ID, s.owned[i])
		for _, id := range m.owned {
			e.startHost[id] = m.host
		}
	}
	e.acct = newDowntime(ix.len(), s.cfgIDs, func(id int32) bool { return s.running[id] }, !lite && s.detail == DetailFull)
	if e.lazy {
		e.acct.lazyCycles()
	}
	if e.plot {
		for _, m := range e.joined {
			_, n := ix.count(m.owned)
			e.running[m.host] = n
			e.series[m.host] = []Point{{TimeMs: 0, Tasks: n}}
		}
	}
	if err := e.run(events); err != nil {
		return nil, err
	}
	e.materializeAll()
	if e.stateAfter > 0 && e.state == nil { // fewer rounds than asked: the state at the end
		e.keepState()
	}
	if e.state != nil {
		e.state.Protocol = s.protocol
	}
	tl.StateAfter = e.state
	tl.Events = e.events
	tl.DelayRead = sim.MaxDelayRead()
	tl.Rounds = e.rounds
	tl.Marks = e.marks
	if e.plot {
		tl.Running = map[string][]Point{}
		for h, pts := range e.series {
			if pts != nil {
				tl.Running[e.hosts.Name(int32(h))] = pts
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
	switch {
	case lite:
	case e.detail == DetailFull:
		tl.Outages = outages(e)
	case e.detail == DetailCompact:
		tl.Sums = outageSums(e)
	}
	return tl, nil
}

// memoLabel is state.Label remembered per member: a label is looked up for
// every event.
func memoLabel(state cluster.State) func(string) string {
	namer := state.Namer()
	seen := map[string]string{}
	return func(m string) string {
		l, ok := seen[m]
		if !ok {
			l = namer.Label(m)
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
		wc := WorkerCount{Worker: m.id, Host: e.hosts.Name(m.host), Connectors: c, Tasks: t}
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
			if h := e.startHost[id]; h >= 0 && e.hosts.Name(h) != e.hosts.Name(m.host) && e.acct.configured[id] {
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
		kind, host := e.outageOf(int32(id))
		out = append(out, Outage{Piece: e.ix.name(int32(id)), Kind: kind, Host: host, NotRunningMs: d.total[id], Intervals: iv})
	}
	return out
}

// outageOf is a piece's kind as outages name it and the worker that ran
// it at the start (nil for none).
func (e *engine) outageOf(id int32) (kind string, host *string) {
	kind = "task"
	if e.ix.isConnector(id) {
		kind = "connector"
	}
	if h := e.startHost[id]; h >= 0 {
		name := e.hosts.Name(h)
		host = &name
	}
	return kind, host
}

func PieceName(k cluster.PieceKey) string {
	if k.IsConnector() {
		return k.Connector
	}
	return assignor.TaskID{Connector: k.Connector, Task: k.Task}.String()
}
