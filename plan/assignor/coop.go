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
	revC, revT   []int32
	trimC, trimT int // load-balancing revocations computed this round
}

func (l *load) empty() bool { return len(l.conns) == 0 && len(l.tasks) == 0 }

const (
	fCfg uint8 = 1 << iota
	fDeleted
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
	cflag, tflag   []uint8
	ccount, tcount []int32
	loads          []load
	order          []int32
	hashes         []int32
	sortIdx        []int32
	lostC, lostT   []int32
	newC, newT     []int32
	outs           []memberOut // the round's answer, valid until the next round
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
	e.resetScratch(ix)
	e.checkPreviousGeneration(in)
	activeC, activeT := e.configuredAndActive(in)
	e.checkPreviousRevocation()
	e.derivedSets(ix, in, activeC, activeT)
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
	e.computePreviousAssignment(in, loads)
	return out
}

// resetScratch sizes and clears the per-piece tables for this round.
func (e *coopEngine) resetScratch(ix *interner) {
	ix.ensureSorted()
	nc, nt := ix.nConns(), ix.nTasks()
	st := &e.st
	st.prevConn = growTo(st.prevConn, nc)
	st.prevTask = growTo(st.prevTask, nt)
	e.cflag = growTo(e.cflag, nc)
	e.tflag = growTo(e.tflag, nt)
	e.ccount = growTo(e.ccount, nc)
	e.tcount = growTo(e.tcount, nt)
	clear(e.cflag)
	clear(e.tflag)
	clear(e.ccount)
	clear(e.tcount)
}

// checkPreviousGeneration forgets the previous assignment when the group's
// last completed generation is not the one this leader assigned (Java: the
// previousGenerationId check, 2.5.1+).
func (e *coopEngine) checkPreviousGeneration(in *roundIn) {
	if e.feat.generationCheck && e.st.prevGen != in.lastCompleted {
		clear(e.st.prevConn)
		clear(e.st.prevTask)
	}
}

// configuredAndActive marks the configured pieces and counts who reports
// each piece (Java: configured, activeAssignments); it returns how many
// distinct pieces some member reports.
func (e *coopEngine) configuredAndActive(in *roundIn) (activeC, activeT int) {
	for _, c := range in.cfgConns {
		e.cflag[c] |= fCfg
	}
	for _, t := range in.cfgTasks {
		e.tflag[t] |= fCfg
	}
	for i := range in.members {
		m := &in.members[i]
		for _, c := range m.conns {
			if e.ccount[c] == 0 {
				activeC++
			}
			e.ccount[c]++
		}
		for _, t := range m.tasks {
			if e.tcount[t] == 0 {
				activeT++
			}
			e.tcount[t]++
		}
	}
	return activeC, activeT
}

// checkPreviousRevocation handles a revocation that did not take effect: the
// previous assignment becomes what is active and revoking is allowed again
// (Java: "a previous revocation did not take effect").
func (e *coopEngine) checkPreviousRevocation() {
	st := &e.st
	if len(st.revConns)+len(st.revTasks) == 0 {
		return
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
}

// derivedSets computes, in Java's sorted order, the deleted, lost and new
// pieces and marks the duplicated ones (Java: deleted, lostAssignments,
// newSubmissions, duplicatedAssignments).
func (e *coopEngine) derivedSets(ix *interner, in *roundIn, activeC, activeT int) {
	st, f := &e.st, e.feat
	e.lostC, e.lostT, e.newC, e.newT = e.lostC[:0], e.lostT[:0], e.newC[:0], e.newT[:0]
	// Room for the created pieces at once (at most the configured ones no
	// member reports) rather than by repeated doubling.
	if n := len(in.cfgConns) - activeC; n > cap(e.newC) {
		e.newC = make([]int32, 0, n)
	}
	if n := len(in.cfgTasks) - activeT; n > cap(e.newT) {
		e.newT = make([]int32, 0, n)
	}
	e.lostC, e.newC = derivedSet(ix.javaRank, st.prevConn, e.cflag, e.ccount, f.duplicates, e.lostC, e.newC)
	e.lostT, e.newT = derivedSet(ix.taskOrdered, st.prevTask, e.tflag, e.tcount, f.duplicates, e.lostT, e.newT)
}

// derivedSet sorts one kind of piece (connectors or tasks) into deleted
// (flagged), lost and new, in Java's order (rank: id -> place in it), and
// flags the duplicated ones when the version does. It reads the pieces in
// id order, which walks the tables straight through, and puts the few it
// lists in Java's order after.
func derivedSet(rank []int32, prev []bool, flag []uint8, count []int32, duplicates bool, lost, created []int32) ([]int32, []int32) {
	l0, c0 := len(lost), len(created)
	count = count[:len(prev)]
	flag = flag[:len(prev)]
	for i, was := range prev {
		p := int32(i)
		cfg, active := flag[i]&fCfg != 0, count[i] > 0
		switch {
		case was && !cfg:
			flag[i] |= fDeleted
		case was && !active:
			lost = append(lost, p)
		case !was && !active && cfg:
			created = append(created, p)
		}
		if duplicates && count[i] > 1 {
			flag[i] |= fDup
		}
	}
	byRank := func(a, b int32) int { return int(rank[a]) - int(rank[b]) }
	slices.SortFunc(lost[l0:], byRank)
	slices.SortFunc(created[c0:], byRank)
	return lost, created
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
	e.order = hashOrder(e.hashes, insertionCap(n), e.order)
	e.loads = growTo(e.loads, n)
	drop := fDeleted | fDup
	if !f.newRevocation {
		drop = fDeleted // before 3.4 duplicates stay in the leader's view of the load
	}
	for k, mi := range e.order {
		m := &in.members[mi]
		l := &e.loads[k]
		l.mi, l.id = int(mi), m.id
		l.conns, l.tasks = l.conns[:0], l.tasks[:0]
		l.revC, l.revT = l.revC[:0], l.revT[:0]
		l.trimC, l.trimT = 0, 0
		for _, c := range m.conns {
			if e.cflag[c]&drop == 0 {
				l.conns = append(l.conns, c)
			} else if f.newRevocation {
				l.revC = append(l.revC, c)
			}
		}
		for _, t := range m.tasks {
			if e.tflag[t]&drop == 0 {
				l.tasks = append(l.tasks, t)
			} else if f.newRevocation {
				l.revT = append(l.revT, t)
			}
		}
		l.baseC, l.baseT = len(l.conns), len(l.tasks)
	}
	return e.loads[:n]
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
// previousMembers).
func (e *coopEngine) computePreviousAssignment(in *roundIn, loads []load) {
	st := &e.st
	clear(st.prevConn)
	clear(st.prevTask)
	for k := range loads {
		l := &loads[k]
		setAll(st.prevConn, l.conns, true)
		setAll(st.prevTask, l.tasks, true)
	}
	for k := range loads {
		l := &loads[k]
		setAll(st.prevConn, l.revC, false)
		setAll(st.prevTask, l.revT, false)
		st.revConns = append(st.revConns, l.revC...)
		st.revTasks = append(st.revTasks, l.revT...)
	}
	// The lost pieces of this round (dealt, reassigned or still held back).
	for _, c := range e.lostC {
		st.prevConn[c] = true
	}
	for _, t := range e.lostT {
		st.prevTask[t] = true
	}
	st.prevGen = in.gen
	st.prevMembers = st.prevMembers[:0]
	for i := range in.members {
		st.prevMembers = append(st.prevMembers, in.members[i].id)
	}
}

// setAll sets the flags of ids to v.
func setAll(flags []bool, ids []int32, v bool) {
	for _, id := range ids {
		flags[id] = v
	}
}
