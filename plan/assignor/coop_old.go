package assignor

// Behaviour of 2.3.0-3.3.x (assignor.md §9), selected by KafkaVersion.

// oldMandatoryRevocations: a deleted piece is revoked from one holder (the
// last in member-map order, as Kafka's owner lookup keeps the last); from
// 2.5.1/2.6.0 a member holding duplicated pieces is told to revoke those,
// which replaces its deleted-piece revocations (fixed in 3.4.0).
func (e *coopEngine) oldMandatoryRevocations(in *roundIn, loads []load) {
	if e.dropC+e.dropT == 0 {
		return // nothing deleted or duplicated: nothing to revoke
	}
	ownerC := map[int32]int{}
	ownerT := map[int32]int{}
	for k := range loads {
		m := &in.members[loads[k].mi]
		for _, c := range m.conns {
			if e.cflag[c]&fDeleted != 0 {
				ownerC[c] = k
			}
		}
		for _, t := range m.tasks {
			if e.tflag[t]&fDeleted != 0 {
				ownerT[t] = k
			}
		}
	}
	for k := range loads {
		l := &loads[k]
		m := &in.members[l.mi]
		for _, c := range m.conns {
			if e.cflag[c]&fDeleted != 0 && ownerC[c] == k {
				l.revC = append(l.revC, c)
			}
		}
		for _, t := range m.tasks {
			if e.tflag[t]&fDeleted != 0 && ownerT[t] == k {
				l.revT = append(l.revT, t)
			}
		}
		if !e.feat.duplicates {
			continue
		}
		var dc, dt []int32
		for _, c := range m.conns {
			if e.cflag[c]&fDup != 0 {
				dc = append(dc, c)
			}
		}
		for _, t := range m.tasks {
			if e.tflag[t]&fDup != 0 {
				dt = append(dt, t)
			}
		}
		if len(dc)+len(dt) > 0 {
			l.revC, l.revT = dc, dt
		}
	}
}

// oldRevocations replaces step 7 before 3.4.0: never two revoking rounds in
// a row (canRevoke), and revocations only when some member holds nothing.
// Revoked pieces stay in the load the new work is placed on.
func (e *coopEngine) oldRevocations(in *roundIn, loads []load) {
	st := &e.st
	st.canRevoke = st.canRevoke && st.delay == 0
	if !st.canRevoke {
		st.canRevoke = st.delay == 0
		return
	}
	revoked := false
	// Totals are the active (reported) pieces; loads are the members' current
	// pieces (reported minus deleted, before any dealt lost pieces).
	activeC, activeT := e.activeC, e.activeT
	existing := 0
	for k := range loads {
		if loads[k].baseC+loads[k].baseT > 0 {
			existing++
		}
	}
	w := len(loads)
	if existing > 0 && existing < w {
		floorC, floorT := activeC/w, activeT/w
		if e.feat.multiCandidate {
			// 2.6.2/2.7.1/2.8.0+: trim every existing member to ceil(avg).
			ceilC, ceilT := floorC, floorT
			if activeC%w != 0 {
				ceilC++
			}
			if activeT%w != 0 {
				ceilT++
			}
			for k := range loads {
				l := &loads[k]
				if l.baseC+l.baseT == 0 {
					continue
				}
				if n := l.baseC - ceilC; n > 0 {
					l.revC = append(l.revC, l.conns[:n]...)
					revoked = true
				}
				if n := l.baseT - ceilT; n > 0 {
					l.revT = append(l.revT, l.tasks[:n]...)
					revoked = true
				}
			}
		} else {
			// Before: one budget of floor(avg) pieces per type for the whole cluster.
			revokedC := revokeWithinBudget(loads, floorC, func(l *load) (int, []int32, *[]int32) { return l.baseC, l.conns, &l.revC })
			revokedT := revokeWithinBudget(loads, floorT, func(l *load) (int, []int32, *[]int32) { return l.baseT, l.tasks, &l.revT })
			revoked = revoked || revokedC || revokedT
		}
	}
	st.canRevoke = !revoked
}

// revokeWithinBudget is the revocation of Kafka before 2.6.2/2.7.1/2.8.0 for
// one kind of piece: existing members above floor give pieces up, in member
// order, until a cluster-wide budget of floor pieces is spent. side picks the
// kind: the member's count, its pieces and where its revoked ones go.
func revokeWithinBudget(loads []load, floor int, side func(l *load) (base int, held []int32, rev *[]int32)) bool {
	revoked := false
	budget := floor
	for k := range loads {
		l := &loads[k]
		if l.baseC+l.baseT == 0 {
			continue
		}
		base, held, rev := side(l)
		for i, n := 0, base; n > floor && budget > 0; i, n, budget = i+1, n-1, budget-1 {
			*rev = append(*rev, held[i])
			revoked = true
		}
		if budget == 0 {
			break
		}
	}
	return revoked
}
