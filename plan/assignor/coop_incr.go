package assignor

import (
	"fmt"
	"slices"
)

// A round of a big group walked every piece several times (who holds it,
// what is lost, new, deleted or duplicated, the leader's memory after),
// though most rounds of a roll change a handful of pieces. The engine keeps
// what it needs to walk only those: the counts of the last round's members,
// the pieces that were not plain (held once, configured, remembered) and
// the ones whose memory flipped. Each kind of piece has its book.

// Flags of the incremental walk (coopEngine.cflag, tflag; cleared each round).
const (
	fApp  uint8 = 1 << (iota + 4) // assigned this round
	fRev                          // revoked this round
	fLost                         // lost this round
	fSeen                         // visited by refresh
)

// pieceBook is one kind's bookkeeping between rounds.
type pieceBook struct {
	cfg   []bool  // configured, as of the engine's cfgVer
	dirty []int32 // pieces whose count changed this round
	// odd: the pieces the last derivation found deleted, lost, new or
	// duplicated. flips: pieces whose memory changed in the last round's
	// refresh. spec: the last round's odd, assigned and revoked pieces.
	odd, flips, spec, next []int32
	oddBuf                 []int32 // derive's list before it becomes odd
}

// incState says what the books describe.
type incState struct {
	ready      bool   // a round has filled the books
	flipsKnown bool   // the last round refreshed the memory (flips is whole)
	stamp      uint64 // the coopState.stamp the last round left
	cfgVer     int    // the configuration the books' cfg holds (0: none)
	rounds     int    // rounds derived incrementally (tests)
	check      bool   // tests: redo every incremental step in full and compare
	checkErr   error
}

// countMembers brings the counts from the last round's members to these.
// Both lists are in join order, where members mostly leave or join at the
// end, so one walk pairs them: a member missing from a few places ahead
// has joined, the ones skipped to reach it have left. A member it does not
// pair is uncounted or counted whole, which is right for any two lists
// (only slower).
func (e *coopEngine) countMembers(members []roundMember) {
	const ahead = 8
	old, i := e.counted, 0
	for j := range members {
		m := &members[j]
		k := i
		for k < len(old) && k < i+ahead && old[k].id != m.id {
			k++
		}
		if k == len(old) || old[k].id != m.id {
			e.recountMember(nil, m)
			continue
		}
		for ; i < k; i++ {
			e.recountMember(&old[i], nil)
		}
		e.recountMember(&old[i], m)
		i++
	}
	for ; i < len(old); i++ {
		e.recountMember(&old[i], nil)
	}
	e.recount = append(e.recount[:0], members...)
	e.counted, e.recount = e.recount, e.counted
}

// recountMember replaces a member's lists (nil: none) in the counts.
func (e *coopEngine) recountMember(was, now *roundMember) {
	var w, n roundMember
	if was != nil {
		w = *was
	}
	if now != nil {
		n = *now
	}
	e.bc.dirty = recountList(w.conns, n.conns, e.ccount, &e.activeC, e.bc.dirty)
	e.bt.dirty = recountList(w.tasks, n.tasks, e.tcount, &e.activeT, e.bt.dirty)
}

// recountList replaces was by now in count and active, noting the pieces
// whose count changed; a list with the same start and length is the same
// list (roundMember).
func recountList(was, now []int32, count []int32, active *int, dirty []int32) []int32 {
	if len(was) == len(now) && (len(now) == 0 || &was[0] == &now[0]) {
		return dirty
	}
	for _, p := range was {
		count[p]--
		if count[p] == 0 {
			*active--
		}
	}
	for _, p := range now {
		if count[p] == 0 {
			*active++
		}
		count[p]++
	}
	dirty = append(dirty, was...)
	return append(dirty, now...)
}

// markConfigured rebuilds the configured tables when the configuration is
// not the one they hold (cfgVer 0: unknown, always rebuilt).
func (e *coopEngine) markConfigured(in *roundIn, nc, nt int) {
	e.bc.cfg = growTo(e.bc.cfg, nc)
	e.bt.cfg = growTo(e.bt.cfg, nt)
	if in.cfgVer != 0 && in.cfgVer == e.inc.cfgVer {
		return
	}
	clear(e.bc.cfg)
	clear(e.bt.cfg)
	setAll(e.bc.cfg, in.cfgConns, true)
	setAll(e.bt.cfg, in.cfgTasks, true)
	e.inc.cfgVer = in.cfgVer
	e.inc.flipsKnown = false // the next derivation walks every piece
}

// deriver sorts pieces into deleted (flagged), lost and new, flags the
// duplicated ones when the version does, and lists the odd ones.
type deriver struct {
	prev, cfg          []bool
	flag               []uint8
	count              []int32
	duplicates         bool
	lost, created, odd []int32
	flagged            int
}

func (d *deriver) visit(i int32) {
	was, cfg, n := d.prev[i], d.cfg[i], d.count[i]
	odd := true
	switch {
	case was && !cfg:
		d.flag[i] |= fDeleted
		d.flagged++
	case was && n == 0:
		d.lost = append(d.lost, i)
	case !was && n == 0 && cfg:
		d.created = append(d.created, i)
	default:
		odd = false
	}
	if d.duplicates && n > 1 {
		d.flag[i] |= fDup
		d.flagged++
		odd = true
	}
	if odd {
		d.odd = append(d.odd, i)
	}
}

// derive is derivedSet of one kind: every piece, or (some) only the last
// round's odd pieces and those whose memory or count changed since, which
// are all that can be odd now. It returns the lost and new pieces in
// Java's order (rank) and how many pieces it flagged.
func (e *coopEngine) derive(b *pieceBook, rank []int32, prev []bool, flag []uint8, count []int32, some bool, lost, created []int32) ([]int32, []int32, int) {
	d := deriver{prev: prev, cfg: b.cfg, flag: flag, count: count[:len(prev)], duplicates: e.feat.duplicates,
		lost: lost, created: created, odd: b.oddBuf[:0]}
	if some {
		for _, ids := range [][]int32{b.odd, b.flips, b.dirty} {
			for _, p := range ids {
				if flag[p]&fMark == 0 {
					flag[p] |= fMark
					d.visit(p)
				}
			}
		}
	} else {
		for i := range prev {
			d.visit(int32(i))
		}
	}
	b.oddBuf, b.odd = b.odd, d.odd
	byRank := func(a, b int32) int { return int(rank[a]) - int(rank[b]) }
	slices.SortFunc(d.lost[len(lost):], byRank)
	slices.SortFunc(d.created[len(created):], byRank)
	if some && e.inc.check {
		full := deriver{prev: prev, cfg: b.cfg, flag: flag, count: d.count, duplicates: d.duplicates}
		for i := range prev {
			full.visit(int32(i))
		}
		slices.SortFunc(full.lost, byRank)
		slices.SortFunc(full.created, byRank)
		if !slices.Equal(full.lost, d.lost[len(lost):]) || !slices.Equal(full.created, d.created[len(created):]) || full.flagged != d.flagged {
			e.inc.checkErr = fmt.Errorf("round %d: incremental derivation differs from the full one", e.inc.rounds)
		}
	}
	return d.lost, d.created, d.flagged
}

// markRound flags this round's assigned, revoked and lost pieces and lists
// the round's special pieces (odd, assigned, revoked) in each book's next.
func (e *coopEngine) markRound(loads []load) {
	bc, bt := &e.bc, &e.bt
	bc.next = append(bc.next[:0], bc.odd...)
	bt.next = append(bt.next[:0], bt.odd...)
	for k := 0; k < len(loads) && e.moved > 0; k++ { // moved: fillAssignments
		l := &loads[k]
		bc.next = append(bc.next, markAll(e.cflag, l.conns[l.baseC:], fApp)...)
		bt.next = append(bt.next, markAll(e.tflag, l.tasks[l.baseT:], fApp)...)
		bc.next = append(bc.next, markAll(e.cflag, l.revC, fRev)...)
		bt.next = append(bt.next, markAll(e.tflag, l.revT, fRev)...)
	}
	markAll(e.cflag, e.lostC, fLost)
	markAll(e.tflag, e.lostT, fLost)
}

// markAll flags ids with f and returns them.
func markAll(flag []uint8, ids []int32, f uint8) []int32 {
	for _, p := range ids {
		flag[p] |= f
	}
	return ids
}

// refreshPrevious is computePreviousAssignment's memory on the pieces that
// can have changed. Outside the last round's and this round's special
// pieces a piece's memory is whether a member holds it (a held piece is in
// a load unless dropped, and then it is odd); so only those and the pieces
// whose count changed can change.
func (e *coopEngine) refreshPrevious(loads []load, drop uint8) {
	st := &e.st
	var beforeC, beforeT []bool
	if e.inc.check {
		beforeC, beforeT = slices.Clone(st.prevConn), slices.Clone(st.prevTask)
	}
	e.bc.flips = refresh(st.prevConn, e.cflag, e.ccount, drop, e.bc.flips[:0], e.bc.spec, e.bc.dirty, e.bc.next)
	e.bt.flips = refresh(st.prevTask, e.tflag, e.tcount, drop, e.bt.flips[:0], e.bt.spec, e.bt.dirty, e.bt.next)
	if e.inc.check {
		e.checkRefresh(beforeC, beforeT, loads)
	}
}

func refresh(prev []bool, flag []uint8, count []int32, drop uint8, flips []int32, lists ...[]int32) []int32 {
	for _, ids := range lists {
		for _, p := range ids {
			f := flag[p]
			if f&fSeen != 0 {
				continue
			}
			flag[p] = f | fSeen
			v := f&fLost != 0 || (count[p] > 0 && f&drop == 0 || f&fApp != 0) && f&fRev == 0
			if prev[p] != v {
				prev[p] = v
				flips = append(flips, p)
			}
		}
	}
	return flips
}

// checkRefresh (tests) compares the refreshed memory with the full
// computation from the memory before.
func (e *coopEngine) checkRefresh(beforeC, beforeT []bool, loads []load) {
	st := &e.st
	fullC, fullT := slices.Clone(beforeC), slices.Clone(beforeT)
	e.fullPrevious(fullC, fullT, loads)
	if !slices.Equal(fullC, st.prevConn) || !slices.Equal(fullT, st.prevTask) {
		e.inc.checkErr = fmt.Errorf("round %d: refreshed memory differs from the full one", e.inc.rounds)
	}
}
