package assignor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// simWorker is one group member as the simulator keeps it: its held lists in
// the worker's own order (assignor.md §6.3 rule 1).
type simWorker struct {
	id           string
	hash         int32
	conns, tasks []int32
	// clean: the held lists have no repeats (an applied round leaves none;
	// a joining worker's given lists may). decoded: dconns and dtasks are
	// the held lists as the leader decodes them, valid until they change.
	// Most members of a big group are told nothing in a round: their lists
	// stay, and decoding them again every round was a fifth of a round.
	clean, decoded bool
	dconns, dtasks []int32
	pos            int // index in join order, set by each eager round
	// deal, when its deck is set, is the member's place in the last eager
	// round, whose cards conns and tasks do not hold yet (eagerdeal.go).
	deal dealt
}

// Sim is the stateful rebalance simulator shared by scenario replay, what-if
// plans and the sandbox: members in join order, the configured connectors,
// the leader's assignor memory, the clock and the generation.
type Sim struct {
	cfg   SimConfig
	jdk   int
	eager bool
	ix    *interner
	eng   *coopEngine

	connectors []ConnectorSpec // sorted by name
	cfgConns   []int32
	cfgTasks   []int32
	cfgVer     int               // counts SetConnectors calls (roundIn.cfgVer)
	taskIDsOf  map[int32][]int32 // configured task ids per connector

	workers []*simWorker // join order
	byID    map[string]*simWorker
	// byJava is the members in Java id order, kept as they join and leave,
	// and deck what eager deals, made once per configuration (nil: not
	// yet): an eager round of a big group only deals the cards.
	byJava  []*simWorker
	deck    *eagerDeck
	deckID  int           // counts the decks made (EagerDeal.DeckID)
	places  []int         // RebalanceDeal's list, reused
	members []roundMember // step's list of a cooperative round, reused
	now     int64
	gen     int

	changes    []MemberChanges // RebalanceChanges' list, reused
	rg         regrouper
	keyBuf     []uint64
	decC, decT []int32 // scratch: decoded assigned lists in apply
}

// ErrInvalidConfig marks a SimConfig that NewSim rejects (a usage error).
var ErrInvalidConfig = errors.New("invalid simulator setting")

// NewSim validates cfg and returns an empty simulator at time 0. Errors wrap
// ErrInvalidConfig.
func NewSim(cfg SimConfig) (*Sim, error) {
	switch cfg.Protocol {
	case "", "sessioned", "compatible", "eager":
	default:
		return nil, fmt.Errorf("%w: unknown protocol %q (want eager, compatible or sessioned)", ErrInvalidConfig, cfg.Protocol)
	}
	if cfg.MaxDelayMs < 0 || cfg.MaxDelayMs > 1<<31-1 {
		return nil, fmt.Errorf("%w: max delay %d ms: want 0 to 2147483647", ErrInvalidConfig, cfg.MaxDelayMs)
	}
	v, err := replayedVersion(cfg.KafkaVersion)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	jdk := cfg.JDK
	if jdk == 0 {
		jdk = 17
	}
	if jdk < 8 {
		return nil, fmt.Errorf("%w: jdk %d: want 8 or newer", ErrInvalidConfig, cfg.JDK)
	}
	ix := newInterner()
	s := &Sim{
		cfg:       cfg,
		jdk:       jdk,
		eager:     cfg.Protocol == "eager",
		ix:        ix,
		eng:       newCoopEngine(featuresFor(v), cfg.MaxDelayMs),
		taskIDsOf: map[int32][]int32{},
	}
	s.rg.ix = ix
	s.rg.jdk = jdk
	return s, nil
}

// Config returns the configuration the simulator was built with.
func (s *Sim) Config() SimConfig { return s.cfg }

// SetConnectors replaces the configured connectors (absolute).
func (s *Sim) SetConnectors(c []ConnectorSpec) {
	byName := make(map[string]int, len(c))
	for _, spec := range c {
		if spec.Tasks < 0 {
			spec.Tasks = 0
		}
		byName[spec.Name] = spec.Tasks
	}
	s.connectors = s.connectors[:0]
	for name, n := range byName {
		s.connectors = append(s.connectors, ConnectorSpec{Name: name, Tasks: n})
	}
	slices.SortFunc(s.connectors, func(a, b ConnectorSpec) int { return strings.Compare(a.Name, b.Name) })
	s.cfgConns = s.cfgConns[:0]
	s.cfgTasks = s.cfgTasks[:0]
	clear(s.taskIDsOf)
	for _, spec := range s.connectors {
		id := s.ix.conn(spec.Name)
		s.cfgConns = append(s.cfgConns, id)
		start := len(s.cfgTasks)
		for t := 0; t < spec.Tasks; t++ {
			s.cfgTasks = append(s.cfgTasks, s.ix.task(id, t))
		}
		s.taskIDsOf[id] = s.cfgTasks[start:len(s.cfgTasks):len(s.cfgTasks)]
	}
	s.deck = nil
	s.cfgVer++
}

// Connectors returns the configured connectors sorted by name.
func (s *Sim) Connectors() []ConnectorSpec { return slices.Clone(s.connectors) }

// find is the member's index in join order, or -1. The map keeps lookups
// (one per joining worker and per Owned call) constant-time: a linear scan
// made a 100,000-worker join step quadratic.
func (s *Sim) find(worker string) int {
	w := s.byID[worker]
	if w == nil {
		return -1
	}
	return slices.Index(s.workers, w)
}

// Join adds a member at the end of the member order. owned is taken in the
// given order as the worker's held order; normally it is empty.
func (s *Sim) Join(worker string, owned Pieces) error {
	if s.byID[worker] != nil {
		return fmt.Errorf("worker %q is already a member", worker)
	}
	w := &simWorker{id: worker, hash: javaStringHash(worker)}
	w.conns, w.tasks = s.ix.internPieces(owned)
	s.workers = append(s.workers, w)
	if s.byID == nil {
		s.byID = map[string]*simWorker{}
	}
	s.byID[worker] = w
	i, _ := slices.BinarySearchFunc(s.byJava, worker, javaOrderOf)
	s.byJava = slices.Insert(s.byJava, i, w)
	return nil
}

func javaOrderOf(w *simWorker, id string) int { return javaCompare(w.id, id) }

// Leave removes a member; what it held is lost to the next round.
func (s *Sim) Leave(worker string) error {
	i := s.find(worker)
	if i < 0 {
		return fmt.Errorf("worker %q is not a member", worker)
	}
	s.workers = slices.Delete(s.workers, i, i+1)
	delete(s.byID, worker)
	if j, ok := slices.BinarySearchFunc(s.byJava, worker, javaOrderOf); ok {
		s.byJava = slices.Delete(s.byJava, j, j+1)
	}
	return nil
}

// Sleep advances the clock; negative values are ignored, and the clock
// stops at math.MaxInt64 instead of wrapping to negative times (callers
// bound their durations far below that).
func (s *Sim) Sleep(ms int64) {
	if ms > 0 {
		if s.now > math.MaxInt64-ms {
			s.now = math.MaxInt64
			return
		}
		s.now += ms
	}
}

// NewLeader gives leadership to a fresh assignor with no memory.
func (s *Sim) NewLeader() { s.eng.st = freshCoopState() }

// MaxDelayRead reports whether a round so far depended on the max delay
// (scheduled.rebalance.max.delay.ms); rounds that did not are the same
// under every max delay. A Clone starts with no read.
func (s *Sim) MaxDelayRead() bool { return s.eng.delayRead }

// Now is the simulated clock in ms from the start.
func (s *Sim) Now() int64 { return s.now }

// Generation is the generation of the last round (0 before any).
func (s *Sim) Generation() int { return s.gen }

// Members returns the member ids in join order.
func (s *Sim) Members() []string {
	out := make([]string, len(s.workers))
	for i, w := range s.workers {
		out[i] = w.id
	}
	return out
}

// Owned returns what a member holds, sorted; empty for an unknown worker.
func (s *Sim) Owned(worker string) Pieces {
	w := s.byID[worker]
	if w == nil {
		return Pieces{Connectors: []string{}, Tasks: []TaskID{}}
	}
	w.materialize()
	return s.ix.sortedPieces(w.conns, w.tasks, &s.keyBuf)
}

// Rebalance runs one round over the current members and applies it.
// generationMismatch makes the leader see an older last completed generation.
func (s *Sim) Rebalance(generationMismatch bool) Round {
	outs, delay := s.step(generationMismatch)
	r := Round{Step: -1, Generation: s.gen, TimeMs: s.now, Workers: make(map[string]WorkerRound, len(s.workers))}
	if len(s.workers) == 0 {
		return r
	}
	if s.eager {
		for _, w := range s.workers {
			w.materialize()
			owned := s.ix.sortedPieces(w.conns, w.tasks, &s.keyBuf)
			r.Workers[w.id] = WorkerRound{
				Assigned: owned,
				Revoked:  Pieces{Connectors: []string{}, Tasks: []TaskID{}},
				Owned:    clonePieces(owned),
			}
		}
		return r
	}
	nNames, nTasks := 0, 0
	for i, w := range s.workers {
		o := &outs[i]
		nNames += len(o.assignedConns) + len(o.revokedConns) + len(w.conns)
		nTasks += len(o.assignedTasks) + len(o.revokedTasks) + len(w.tasks)
	}
	// The results of all workers share a few allocations (a third of the
	// round's time went into allocating and collecting them one by one).
	a := pieceArena{names: make([]string, 0, nNames), tasks: make([]TaskID, 0, nTasks)}
	for i, w := range s.workers {
		o := &outs[i]
		r.Workers[w.id] = WorkerRound{
			Assigned: s.ix.sortedPiecesIn(o.assignedConns, o.assignedTasks, &s.keyBuf, &a),
			Revoked:  s.ix.sortedPiecesIn(o.revokedConns, o.revokedTasks, &s.keyBuf, &a),
			Owned:    s.ix.sortedPiecesIn(w.conns, w.tasks, &s.keyBuf, &a),
			DelayMs:  delay,
		}
	}
	return r
}

// RoundChanges is one round in the simulator's own piece ids (ConnectorName
// and TaskOf name them), for callers that track ownership themselves and
// need neither names nor every member's sorted holdings: building those is
// most of a round's cost when few pieces move.
type RoundChanges struct {
	Generation int
	DelayMs    int64           // the cooperative leader's scheduled delay (0 under eager)
	Members    []MemberChanges // every member, in join order
}

// MemberChanges is what one member was sent. Under eager Assigned is the
// whole new assignment and Revoked is empty. The lists are the
// simulator's and valid until its next round; they may hold duplicates.
type MemberChanges struct {
	ID                           string
	AssignedConns, AssignedTasks []int32
	RevokedConns, RevokedTasks   []int32
}

// RebalanceChanges is Rebalance returning the round as RoundChanges. The
// rounds are the same: only the form of the result differs.
func (s *Sim) RebalanceChanges(generationMismatch bool) RoundChanges {
	outs, delay := s.step(generationMismatch)
	// The members' list is reused from round to round (a round of a big
	// group listed a thousand members anew): valid, like the lists it
	// holds, until the next round.
	s.changes = slices.Grow(s.changes[:0], len(s.workers))[:len(s.workers)]
	rc := RoundChanges{Generation: s.gen, DelayMs: delay, Members: s.changes}
	for i, w := range s.workers {
		o := &outs[i]
		rc.Members[i] = MemberChanges{ID: w.id, AssignedConns: o.assignedConns, AssignedTasks: o.assignedTasks,
			RevokedConns: o.revokedConns, RevokedTasks: o.revokedTasks}
	}
	return rc
}

// ConnectorName names a connector id of RoundChanges.
func (s *Sim) ConnectorName(id int32) string { return s.ix.conns.names[id] }

// TaskOf is a task id of RoundChanges as its connector's id and task number.
func (s *Sim) TaskOf(id int32) (connector int32, task int) {
	return s.ix.taskConn[id], int(s.ix.taskNum[id])
}

// step runs one round and applies it on every member: the generation rises,
// the assignor runs over the members' held lists, each member takes its
// assignment. It returns the assignor's output per member (join order) and
// the cooperative delay.
func (s *Sim) step(generationMismatch bool) ([]memberOut, int64) {
	s.gen++
	if len(s.workers) == 0 {
		return nil, 0
	}
	if s.eager {
		// The eager assignor reads only the member ids: what members hold,
		// and so their held order, does not matter to it.
		d := s.eagerDeck()
		for i, w := range s.workers {
			w.pos = i
		}
		order := make([]int, len(s.byJava))
		for p, w := range s.byJava {
			order[p] = w.pos
		}
		outs := d.deal(order, len(s.workers))
		for i, w := range s.workers {
			w.conns, w.tasks = outs[i].assignedConns, outs[i].assignedTasks
			w.decoded, w.clean, w.deal = false, false, dealt{}
		}
		return outs, 0
	}
	// The members' list is reused from round to round (a thousand members
	// listed anew every round of a roll were most of its garbage).
	s.members = growTo(s.members, len(s.workers))
	members := s.members
	held := 0
	for _, w := range s.workers {
		if !w.decoded {
			held += len(w.conns) + len(w.tasks)
		}
	}
	ids := make([]int32, held) // the decoded lists that changed, carved below
	for i, w := range s.workers {
		if !w.decoded {
			w.dconns, w.dtasks = s.rg.regroupTo(w.conns, w.tasks, ids[:0:len(w.conns)], ids[len(w.conns):len(w.conns):len(w.conns)+len(w.tasks)])
			ids = ids[len(w.conns)+len(w.tasks):]
			w.decoded = true
		}
		members[i] = roundMember{id: w.id, hash: w.hash, conns: w.dconns, tasks: w.dtasks}
	}
	last := s.gen - 1
	if generationMismatch {
		last = s.gen - 2
	}
	out := s.eng.round(s.ix, &roundIn{
		members:       members,
		cfgConns:      s.cfgConns,
		cfgTasks:      s.cfgTasks,
		cfgVer:        s.cfgVer,
		now:           s.now,
		gen:           s.gen,
		lastCompleted: last,
	})
	for i, w := range s.workers {
		s.apply(w, &out.members[i])
	}
	return out.members, out.delay
}

// apply is the worker side of a cooperative round: held = decoded assigned
// lists followed by the previous held lists minus the revoked pieces.
func (s *Sim) apply(w *simWorker, o *memberOut) {
	if w.clean && len(o.assignedConns)+len(o.assignedTasks)+len(o.revokedConns)+len(o.revokedTasks) == 0 {
		return // told nothing, no repeats to drop: the held lists stay as they are
	}
	s.decC, s.decT = s.rg.regroupTo(o.assignedConns, o.assignedTasks, s.decC, s.decT)
	w.conns = s.rg.prependMinus(s.decC, w.conns, o.revokedConns, true)
	w.tasks = s.rg.prependMinus(s.decT, w.tasks, o.revokedTasks, false)
	w.clean, w.decoded = true, false
}

// Settle runs rounds until the cluster is stable (scenario-format.md
// "settle"): after a revoking round run again at once; after a round with
// only a delay, sleep the delay first; at most maxRounds (<=0: 20) rounds.
func (s *Sim) Settle(maxRounds int) []Round {
	rounds, _ := s.SettleContext(context.Background(), maxRounds)
	return rounds
}

// SettleContext is Settle that stops between rounds once ctx is cancelled
// (a nil ctx never is), returning the rounds run so far and ctx's error.
func (s *Sim) SettleContext(ctx context.Context, maxRounds int) ([]Round, error) {
	if maxRounds <= 0 {
		maxRounds = 20
	}
	var rounds []Round
	for i := 0; i < maxRounds; i++ {
		if ctx != nil && ctx.Err() != nil {
			return rounds, ctx.Err()
		}
		r := s.Rebalance(false)
		rounds = append(rounds, r)
		revoked, delay := roundActivity(r)
		if revoked {
			continue
		}
		if delay > 0 && i < maxRounds-1 {
			s.Sleep(delay)
			continue
		}
		break
	}
	return rounds, nil
}

// roundActivity reports whether a round revoked anything and its delay.
func roundActivity(r Round) (revoked bool, delay int64) {
	for _, w := range r.Workers {
		if w.Revoked.Len() > 0 {
			revoked = true
		}
		if w.DelayMs > delay {
			delay = w.DelayMs
		}
	}
	return revoked, delay
}

func clonePieces(p Pieces) Pieces {
	return Pieces{Connectors: slices.Clone(p.Connectors), Tasks: slices.Clone(p.Tasks)}
}

// Clone returns an independent copy of the simulator.
func (s *Sim) Clone() *Sim {
	c := *s
	c.ix = s.ix.clone()
	c.eng = &coopEngine{feat: s.eng.feat, maxDelay: s.eng.maxDelay, st: s.eng.st.clone()}
	c.connectors = slices.Clone(s.connectors)
	c.cfgConns = slices.Clone(s.cfgConns)
	c.cfgTasks = slices.Clone(s.cfgTasks)
	c.taskIDsOf = make(map[int32][]int32, len(s.taskIDsOf))
	for k, v := range s.taskIDsOf {
		c.taskIDsOf[k] = slices.Clone(v)
	}
	c.workers = make([]*simWorker, len(s.workers))
	c.byID = make(map[string]*simWorker, len(s.workers))
	for i, w := range s.workers {
		cw := *w
		conns, tasks := w.held()
		cw.conns = slices.Clone(conns)
		cw.tasks = slices.Clone(tasks)
		cw.deal = dealt{}
		cw.decoded, cw.dconns, cw.dtasks = false, nil, nil
		c.workers[i] = &cw
		c.byID[cw.id] = &cw
	}
	c.byJava = make([]*simWorker, len(s.byJava))
	for i, w := range s.byJava {
		c.byJava[i] = c.byID[w.id]
	}
	c.deck = nil
	c.rg = regrouper{ix: c.ix, jdk: s.jdk}
	c.keyBuf, c.decC, c.decT, c.changes, c.places, c.members = nil, nil, nil, nil, nil, nil
	return &c
}
