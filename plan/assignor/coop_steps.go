package assignor

import "slices"

// handleLost is step 6 (assignor.md §3, §9 for older versions).
func (e *coopEngine) handleLost(in *roundIn, loads []load) {
	st, f := &e.st, e.feat
	lostEmpty := len(e.lostC)+len(e.lostT) == 0
	// Rule 1.
	if lostEmpty && (!f.newRevocation || !st.revokedInPrevious) {
		if f.resetDelayWhenNothingLost {
			st.resetDelay()
		}
		return
	}
	now := in.now
	// Rule 2: nobody left, the pieces were lost by a failed sync.
	if f.generationCheck && st.scheduled <= 0 && allPresent(st.prevMembers, in.members, loads) {
		e.reassignLost()
		return
	}
	// Rule 3.
	if f.zeroDelayNow && e.delay() == 0 {
		e.reassignLost()
		return
	}
	if st.scheduled > 0 && now >= st.scheduled {
		// Rule 4: the deadline passed.
		cands := e.presentCandidates(loads)
		if len(cands) > 0 {
			if !f.multiCandidate {
				cands = cands[:1]
			}
			for i, c := range e.lostC {
				l := cands[i%len(cands)]
				l.conns = append(l.conns, c)
			}
			for i, t := range e.lostT {
				l := cands[i%len(cands)]
				l.tasks = append(l.tasks, t)
			}
		} else {
			e.reassignLost()
		}
		st.resetDelay()
		st.revokedInPrevious = false
		return
	}
	// Rule 5: a delay starts or runs.
	e.addCandidates(loads)
	if now < st.scheduled {
		d := st.scheduled - now
		if maxDelay := e.delay(); d > maxDelay {
			d = maxDelay
		}
		st.delay = int64(int32(d))
	} else {
		st.delay = e.delay()
	}
	st.scheduled = now + st.delay
}

func (e *coopEngine) reassignLost() {
	e.newC = append(e.newC, e.lostC...)
	e.newT = append(e.newT, e.lostT...)
}

func allPresent(prev []string, members []roundMember, loads []load) bool {
	if len(prev) == 0 {
		return true
	}
	if present, known := inOrder(prev, members); known {
		return present
	}
	if len(prev)*len(loads) <= 4096 {
		for _, p := range prev {
			found := false
			for k := range loads {
				if loads[k].id == p {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	ids := make(map[string]struct{}, len(loads))
	for k := range loads {
		ids[loads[k].id] = struct{}{}
	}
	for _, p := range prev {
		if _, ok := ids[p]; !ok {
			return false
		}
	}
	return true
}

// inOrder tells whether prev are all members the quick way: present when
// they come in the members' order (join order, kept from round to round as
// members leave and join at the end), absent when the first one out of
// order is not a member at all; known false when it cannot tell.
func inOrder(prev []string, members []roundMember) (present, known bool) {
	j := 0
	for _, p := range prev {
		for j < len(members) && members[j].id != p {
			j++
		}
		if j == len(members) {
			return false, !slices.ContainsFunc(members, func(m roundMember) bool { return m.id == p })
		}
		j++
	}
	return true, true
}

// presentCandidates returns the candidate workers still in the group, in the
// candidate set's order.
func (e *coopEngine) presentCandidates(loads []load) []*load {
	var out []*load
	if len(e.st.candidates)*len(loads) <= 1<<14 { // a few candidates, as in a roll
		for _, c := range e.st.candidates {
			for k := range loads {
				if loads[k].id == c {
					out = append(out, &loads[k])
					break
				}
			}
		}
		return out
	}
	byID := make(map[string]*load, len(loads))
	for k := range loads {
		byID[loads[k].id] = &loads[k]
	}
	for _, c := range e.st.candidates {
		if l, ok := byID[c]; ok {
			out = append(out, l)
		}
	}
	return out
}

// addCandidates appends the members whose next load is empty, in the
// iteration order of a HashSet filled in member-map order (§6.5).
func (e *coopEngine) addCandidates(loads []load) {
	var empty []*load
	var hashes []int32
	for k := range loads {
		if loads[k].empty() {
			empty = append(empty, &loads[k])
			hashes = append(hashes, javaStringHash(loads[k].id))
		}
	}
	if len(empty) == 0 {
		return
	}
	order := hashOrder(hashes, insertionCap(len(empty)), nil)
	st := &e.st
	// A map once the list can grow long: many members empty at once (a
	// group restarted whole) made the list search quadratic.
	var have map[string]struct{}
	if len(st.candidates)+len(empty) > 16 {
		have = make(map[string]struct{}, len(st.candidates))
		for _, c := range st.candidates {
			have[c] = struct{}{}
		}
	}
	for _, i := range order {
		id := empty[i].id
		if have != nil {
			if _, ok := have[id]; ok {
				continue
			}
			have[id] = struct{}{}
		} else if slices.Contains(st.candidates, id) {
			continue
		}
		st.candidates = append(st.candidates, id)
	}
}

// revocations is step 7 for 3.4.0+: load-balancing revocations with the
// consecutive-revocation backoff.
func (e *coopEngine) revocations(in *roundIn, loads []load) {
	st := &e.st
	if st.delay != 0 {
		st.revokedInPrevious = false
		return
	}
	need := e.computeLB(in, loads)
	switch {
	case st.revokedInPrevious && need:
		st.successive++
		st.delay = revokingBackoff(st.successive, e.delay())
		if st.delay != 0 {
			st.scheduled = in.now + st.delay
		} else {
			applyTrims(loads)
		}
	case need:
		applyTrims(loads)
		st.revokedInPrevious = true
	case st.revokedInPrevious:
		st.revokedInPrevious = false
		st.successive = 0
	}
}

// computeLB sets trimC/trimT of every load (§3.1) and reports whether any is non-zero.
func (e *coopEngine) computeLB(in *roundIn, loads []load) bool {
	allEmpty := true
	for k := range loads {
		if !loads[k].empty() {
			allEmpty = false
			break
		}
	}
	if allEmpty || len(in.cfgConns)+len(in.cfgTasks) == 0 {
		return false
	}
	c := lbTrims(loads, len(in.cfgConns), func(l *load) int { return len(l.conns) }, func(l *load, k int) { l.trimC = k })
	t := lbTrims(loads, len(in.cfgTasks), func(l *load) int { return len(l.tasks) }, func(l *load, k int) { l.trimT = k })
	return c || t
}

func lbTrims(loads []load, total int, size func(*load) int, set func(*load, int)) bool {
	w := len(loads)
	lo, extra := total/w, total%w
	atLo, atHi := 0, 0
	for k := range loads {
		switch size(&loads[k]) {
		case lo:
			atLo++
		case lo + 1:
			atHi++
		}
	}
	if atHi == extra && atLo+atHi == w {
		return false
	}
	trimmed := false
	given := 0
	for k := range loads {
		l := &loads[k]
		held := size(l)
		if held <= lo {
			continue
		}
		target := lo
		if given < extra {
			given++
			if held == lo+1 {
				continue
			}
			target = lo + 1
		}
		set(l, held-target)
		trimmed = true
	}
	return trimmed
}

// applyTrims revokes the first trim pieces of every load's held order.
func applyTrims(loads []load) {
	for k := range loads {
		l := &loads[k]
		if l.trimC > 0 {
			l.revC = append(l.revC, l.conns[:l.trimC]...)
			l.conns = l.conns[l.trimC:] // not in place: it may be the member's list
			l.baseC = max(0, l.baseC-l.trimC)
			l.trimC = 0
		}
		if l.trimT > 0 {
			l.revT = append(l.revT, l.tasks[:l.trimT]...)
			l.tasks = l.tasks[l.trimT:]
			l.baseT = max(0, l.baseT-l.trimT)
			l.trimT = 0
		}
	}
}

// waterFill is step 8 (§6.4): sort once by (count, member id), then passes
// over the front group of least-loaded members without re-sorting.
func (e *coopEngine) waterFill(loads []load, pieces []int32, conns bool) {
	if len(pieces) == 0 {
		return
	}
	size := func(l *load) int { return len(l.tasks) }
	if conns {
		size = func(l *load) int { return len(l.conns) }
	}
	idx := e.sortIdx[:0]
	for k := range loads {
		idx = append(idx, int32(k))
	}
	slices.SortFunc(idx, func(a, b int32) int {
		sa, sb := size(&loads[a]), size(&loads[b])
		if sa != sb {
			return sa - sb
		}
		return javaCompare(loads[a].id, loads[b].id)
	})
	e.sortIdx = idx
	// Grow every list once to the level all would reach if filled evenly
	// (the usual outcome) instead of doubling piece by piece.
	total := len(pieces)
	for k := range loads {
		total += size(&loads[k])
	}
	level := (total + len(loads) - 1) / len(loads)
	for k := range loads {
		l := &loads[k]
		if conns && level > len(l.conns) {
			l.conns = slices.Grow(l.conns, level-len(l.conns))
		} else if !conns && level > len(l.tasks) {
			l.tasks = slices.Grow(l.tasks, level-len(l.tasks))
		}
	}
	first := &loads[idx[0]]
	p := 0
	for p < len(pieces) {
		f := size(first)
		upTo := len(idx)
		for i, k := range idx {
			if size(&loads[k]) > f {
				upTo = i
				break
			}
		}
		for i := 0; i < upTo && p < len(pieces); i++ {
			l := &loads[idx[i]]
			if conns {
				l.conns = append(l.conns, pieces[p])
			} else {
				l.tasks = append(l.tasks, pieces[p])
			}
			p++
		}
	}
}
