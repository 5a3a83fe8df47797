package assignor

import "slices"

// coopState is the leader's memory between rounds (assignor.md §2), on ids.
type coopState struct {
	prevConn, prevTask []bool  // previousAssignment
	revConns, revTasks []int32 // previousRevocation
	prevGen            int
	prevMembers        []string
	scheduled          int64
	delay              int64
	candidates         []string
	revokedInPrevious  bool
	successive         int64
	canRevoke          bool
	// stamp: which engine round left this memory (0: set from outside,
	// as a new leader or a given state; the engine then walks it whole).
	stamp uint64
}

func freshCoopState() coopState { return coopState{prevGen: -1, canRevoke: true} }

func (st *coopState) clone() coopState {
	c := *st
	c.prevConn = slices.Clone(st.prevConn)
	c.prevTask = slices.Clone(st.prevTask)
	c.revConns = slices.Clone(st.revConns)
	c.revTasks = slices.Clone(st.revTasks)
	c.prevMembers = slices.Clone(st.prevMembers)
	c.candidates = slices.Clone(st.candidates)
	return c
}

func (st *coopState) resetDelay() {
	st.candidates = st.candidates[:0]
	st.scheduled = 0
	st.delay = 0
}

// roundMember is one member as the leader decoded it: held order, no repeats.
// The lists are never written to once given to a round: the engine keeps
// them and takes a list with the same start and length as unchanged.
type roundMember struct {
	id           string
	hash         int32
	conns, tasks []int32
}

type roundIn struct {
	members            []roundMember // JoinGroup order
	cfgConns, cfgTasks []int32       // configured pieces
	now                int64
	gen, lastCompleted int
	// cfgVer names the configuration (cfgConns, cfgTasks): a round with
	// the last round's non-zero cfgVer has the same configuration.
	cfgVer int
}

// memberOut is what the leader sends one member. assigned* are in the
// leader's `next` order; revoked* in no particular order.
type memberOut struct {
	assignedConns, assignedTasks []int32
	revokedConns, revokedTasks   []int32
}

type roundOut struct {
	members []memberOut // indexed like roundIn.members
	delay   int64
}

// load is a member's `next` allocation while a round is computed.
type load struct {
	mi           int
	id           string
	conns, tasks []int32
	baseC, baseT int // leading pieces that the member already held
	// ownC, ownT: the load's own buffers, reused between rounds. conns and
	// tasks are either in them or the member's lists cut to their length
	// (nothing dropped: appending copies, nothing writes into the member's).
	ownC, ownT   []int32
	revC, revT   []int32
	trimC, trimT int // load-balancing revocations computed this round
}

func (l *load) empty() bool { return len(l.conns) == 0 && len(l.tasks) == 0 }

const (
	fDeleted uint8 = 1 << iota
	fDup
	fMark
)

// coopEngine runs the incremental cooperative assignor round by round.
type coopEngine struct {
	feat     features
	maxDelay int64 // read through delay(), which notes the read
	st       coopState
	// delayRead: a round consulted the max delay. Until one does, the
	// rounds are the same under every max delay (the advisor shares them).
	delayRead bool

	// scratch reused between rounds
	cflag, tflag []uint8
	bc, bt       pieceBook // connectors' and tasks' books (coop_incr.go)
	inc          incState
	stamps       uint64 // rounds computed, naming the memory each leaves
	// ccount, tcount count the members holding each piece, and activeC,
	// activeT the pieces some member holds, for the members of counted
	// (the last round's, their lists kept): a round recounts only the
	// members that came, went or hold other lists (countMembers).
	ccount, tcount   []int32
	activeC, activeT int
	counted, recount []roundMember
	// dropC, dropT: pieces flagged deleted or duplicated this round (the
	// loads copy the members' lists only when some are).
	dropC, dropT int
	moved        int // pieces assigned or revoked this round (fillAssignments)
	loads        []load
	order        []int32
	orderOf      []int32 // the members' hashes order was computed from
	hashes       []int32
	sortIdx      []int32
	lostC, lostT []int32
	newC, newT   []int32
	outs         []memberOut // the round's answer, valid until the next round
}

func newCoopEngine(feat features, maxDelay int64) *coopEngine {
	return &coopEngine{feat: feat, maxDelay: maxDelay, st: freshCoopState()}
}

// delay is the max delay, noting that a round depends on it.
func (e *coopEngine) delay() int64 {
	e.delayRead = true
	return e.maxDelay
}

func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s[:n]
	}
	return append(s, make([]T, n-len(s))...)
}

// round is one cooperative assignment by the leader, as Kafka's
// IncrementalCooperativeAssignor.performTaskAssignment does it; each step is
// named after the Java code it follows (assignor.md).
func (e *coopEngine) round(ix *interner, in *roundIn) roundOut {
	e.resetScratch(ix, in)
	bulk := e.checkPreviousGeneration(in)
	activeC, activeT := e.configuredAndActive(in)
	bulk = e.checkPreviousRevocation() || bulk
	// same: the memory is as the last round left it, so the books hold.
	same := !bulk && e.inc.ready && e.st.stamp == e.inc.stamp
	e.derivedSets(ix, in, activeC, activeT, same && e.inc.flipsKnown)
	loads := e.workerAssignment(in)
	if !e.feat.newRevocation {
		e.oldMandatoryRevocations(in, loads)
	}
	// Lost pieces to place as new work are appended to newC/newT.
	e.handleLost(in, loads)
	if e.feat.newRevocation {
		e.revocations(in, loads)
	} else {
		e.oldRevocations(in, loads)
	}
	e.assignNewWork(loads)
	out := e.fillAssignments(loads)
	e.computePreviousAssignment(in, loads, same)
	return out
}

// resetScratch sizes and clears the per-piece tables for this round.
func (e *coopEngine) resetScratch(ix *interner, in *roundIn) {
	ix.ensureSorted()
	nc, nt := ix.nConns(), ix.nTasks()
	st := &e.st
	st.prevConn = growTo(st.prevConn, nc)
	st.prevTask = growTo(st.prevTask, nt)
	e.cflag = growTo(e.cflag, nc)
	e.tflag = growTo(e.tflag, nt)
	e.ccount = growTo(e.ccount, nc) // kept: countMembers updates them
	e.tcount = growTo(e.tcount, nt)
	clear(e.cflag)
	clear(e.tflag)
	e.bc.dirty, e.bt.dirty = e.bc.dirty[:0], e.bt.dirty[:0]
	e.markConfigured(in, nc, nt)
}

// checkPreviousGeneration forgets the previous assignment when the group's
// last completed generation is not the one this leader assigned (Java: the
// previousGenerationId check, 2.5.1+).
// It reports whether it did.
func (e *coopEngine) checkPreviousGeneration(in *roundIn) bool {
	if e.feat.generationCheck && e.st.prevGen != in.lastCompleted {
		clear(e.st.prevConn)
		clear(e.st.prevTask)
		return true
	}
	return false
}

// configuredAndActive counts who reports each piece (the configured ones
// are marked by markConfigured) (Java: configured, activeAssignments); it returns how many
// distinct pieces some member reports.
func (e *coopEngine) configuredAndActive(in *roundIn) (activeC, activeT int) {
	e.countMembers(in.members)
	return e.activeC, e.activeT
}

// checkPreviousRevocation handles a revocation that did not take effect: the
// previous assignment becomes what is active and revoking is allowed again
// (Java: "a previous revocation did not take effect"). It reports whether
// it rewrote the previous assignment.
func (e *coopEngine) checkPreviousRevocation() bool {
	st := &e.st
	if len(st.revConns)+len(st.revTasks) == 0 {
		return false
	}
	failed := false
	for _, c := range st.revConns {
		failed = failed || e.ccount[c] > 0
	}
	for _, t := range st.revTasks {
		failed = failed || e.tcount[t] > 0
	}
	if failed {
		for i := range st.prevConn {
			st.prevConn[i] = e.ccount[i] > 0
		}
		for i := range st.prevTask {
			st.prevTask[i] = e.tcount[i] > 0
		}
		st.canRevoke = true
	}
	st.revConns = st.revConns[:0]
	st.revTasks = st.revTasks[:0]
	return failed
}

// derivedSets computes, in Java's sorted order, the deleted, lost and new
// pieces and marks the duplicated ones (Java: deleted, lostAssignments,
// newSubmissions, duplicatedAssignments); some: from the books alone.
func (e *coopEngine) derivedSets(ix *interner, in *roundIn, activeC, activeT int, some bool) {
	st := &e.st
	e.lostC, e.lostT, e.newC, e.newT = e.lostC[:0], e.lostT[:0], e.newC[:0], e.newT[:0]
	// Room for the created pieces at once (at most the configured ones no
	// member reports) rather than by repeated doubling.
	if n := len(in.cfgConns) - activeC; n > cap(e.newC) {
		e.newC = make([]int32, 0, n)
	}
	if n := len(in.cfgTasks) - activeT; n > cap(e.newT) {
		e.newT = make([]int32, 0, n)
	}
	if some {
		e.inc.rounds++
	}
	e.lostC, e.newC, e.dropC = e.derive(&e.bc, ix.javaRank, st.prevConn, e.cflag, e.ccount, some, e.lostC, e.newC)
	e.lostT, e.newT, e.dropT = e.derive(&e.bt, ix.taskOrdered, st.prevTask, e.tflag, e.tcount, some, e.lostT, e.newT)
}

// workerAssignment builds the members' loads in member-map order without
// the deleted (3.4+: and duplicated) pieces, which become mandatory
// revocations (Java: workerAssignment(memberConfigs, deleted), computeDeleted,
// computeDuplicatedAssignments).
func (e *coopEngine) workerAssignment(in *roundIn) []load {
	f := e.feat
	n := len(in.members)
	e.hashes = e.hashes[:0]
	for i := range in.members {
		e.hashes = append(e.hashes, in.members[i].hash)
	}
	// The members' order changes only with who the members are.
	if !slices.Equal(e.hashes, e.orderOf) {
		e.order = hashOrder(e.hashes, insertionCap(n), e.order)
		e.orderOf = append(e.orderOf[:0], e.hashes...)
	}
	e.loads = growTo(e.loads, n)
	drop := e.dropMask()
	for k, mi := range e.order {
		m := &in.members[mi]
		l := &e.loads[k]
		l.mi, l.id = int(mi), m.id
		l.revC, l.revT = l.revC[:0], l.revT[:0]
		l.trimC, l.trimT = 0, 0
		l.conns, l.ownC, l.revC = keepOrDrop(m.conns, l.ownC, l.revC, e.cflag, drop, e.dropC == 0, f.newRevocation)
		l.tasks, l.ownT, l.revT = keepOrDrop(m.tasks, l.ownT, l.revT, e.tflag, drop, e.dropT == 0, f.newRevocation)
		l.baseC, l.baseT = len(l.conns), len(l.tasks)
	}
	return e.loads[:n]
}

// dropMask is the flags of the pieces left out of the loads.
func (e *coopEngine) dropMask() uint8 {
	if !e.feat.newRevocation {
		return fDeleted // before 3.4 duplicates stay in the leader's view of the load
	}
	return fDeleted | fDup
}

// keepOrDrop is a member's list in its load without the dropped pieces,
// which go to rev when revoke: the list itself cut to its length when no
// piece is flagged, else a copy in own (returned for reuse).
func keepOrDrop(held, own, rev []int32, flag []uint8, drop uint8, none, revoke bool) (kept, ownOut, revOut []int32) {
	if none {
		return held[:len(held):len(held)], own, rev
	}
	kept = own[:0]
	for _, p := range held {
		if flag[p]&drop == 0 {
			kept = append(kept, p)
		} else if revoke {
			rev = append(rev, p)
		}
	}
	return kept, kept, rev
}

// assignNewWork deals the new pieces (Java: assignConnectors, assignTasks).
// Every version places the created pieces (sorted) first and the lost pieces
// handed out as new (sorted) after them: before 3.4 the lost pieces are
// appended to an ArrayList copy of the created set, not merged into it
// (checked against 2.3.0-3.3.2's own assignors).
func (e *coopEngine) assignNewWork(loads []load) {
	if len(loads) > 0 {
		e.waterFill(loads, e.newC, true)
		e.waterFill(loads, e.newT, false)
	}
}

// fillAssignments is each member's part of the round: what it gains and
// what it must revoke (Java: fillAssignments).
func (e *coopEngine) fillAssignments(loads []load) roundOut {
	e.outs = growTo(e.outs, len(loads))
	out := roundOut{members: e.outs, delay: e.st.delay}
	total := 0
	for k := range loads {
		l := &loads[k]
		total += len(l.conns) - l.baseC + len(l.tasks) - l.baseT + len(l.revC) + len(l.revT)
	}
	e.moved = total
	if total == 0 { // most rounds of a big group: nobody is told anything
		clear(out.members)
		return out
	}
	// One allocation for every member's lists; each list's capacity is cut to its length.
	buf := make([]int32, 0, total)
	carve := func(ids []int32) []int32 {
		start := len(buf)
		buf = append(buf, ids...)
		return buf[start:len(buf):len(buf)]
	}
	for k := range loads {
		l := &loads[k]
		out.members[l.mi] = memberOut{
			assignedConns: carve(l.conns[l.baseC:]),
			assignedTasks: carve(l.tasks[l.baseT:]),
			revokedConns:  carve(l.revC),
			revokedTasks:  carve(l.revT),
		}
	}
	return out
}

// computePreviousAssignment is the leader's memory for the next round: what
// it assigned minus what it revoked, plus this round's lost pieces, and the
// revocations to check (Java: computePreviousAssignment, previousGenerationId,
// previousMembers). same: the books hold, only the pieces they name change.
func (e *coopEngine) computePreviousAssignment(in *roundIn, loads []load, same bool) {
	st := &e.st
	e.markRound(loads)
	if same {
		e.refreshPrevious(loads, e.dropMask())
	} else {
		e.fullPrevious(st.prevConn, st.prevTask, loads)
	}
	e.bc.spec, e.bc.next = e.bc.next, e.bc.spec
	e.bt.spec, e.bt.next = e.bt.next, e.bt.spec
	e.stamps++
	st.stamp = e.stamps
	e.inc.ready, e.inc.flipsKnown, e.inc.stamp = true, same, st.stamp
	for k := 0; k < len(loads) && e.moved > 0; k++ {
		l := &loads[k]
		st.revConns = append(st.revConns, l.revC...)
		st.revTasks = append(st.revTasks, l.revT...)
	}
	st.prevGen = in.gen
	st.prevMembers = st.prevMembers[:0]
	for i := range in.members {
		st.prevMembers = append(st.prevMembers, in.members[i].id)
	}
}

// fullPrevious computes the memory from every load into prevC and prevT.
func (e *coopEngine) fullPrevious(prevC, prevT []bool, loads []load) {
	clear(prevC)
	clear(prevT)
	for k := range loads {
		l := &loads[k]
		setAll(prevC, l.conns, true)
		setAll(prevT, l.tasks, true)
	}
	for k := range loads {
		l := &loads[k]
		setAll(prevC, l.revC, false)
		setAll(prevT, l.revT, false)
	}
	// The lost pieces of this round (dealt, reassigned or still held back).
	setAll(prevC, e.lostC, true)
	setAll(prevT, e.lostT, true)
}

// setAll sets the flags of ids to v.
func setAll(flags []bool, ids []int32, v bool) {
	for _, id := range ids {
		flags[id] = v
	}
}
