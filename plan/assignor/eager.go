package assignor

import "slices"

// eagerRound is the eager assignor (assignor.md §7): members sorted by id,
// connectors sorted, one cyclic iterator dealing connectors then tasks.
// It returns each member's full assignment, indexed like members.
func eagerRound(ix *interner, members []roundMember, cfgConns []int32, cfgTaskCount func(c int32) []int32) []memberOut {
	out := make([]memberOut, len(members))
	if len(members) == 0 {
		return out
	}
	ix.ensureSorted()
	idx := make([]int, len(members))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return javaCompare(members[a].id, members[b].id) })
	conns := slices.Clone(cfgConns)
	// Java String.compareTo order, by the interner's precomputed ranks:
	// comparing the names themselves was most of an eager round.
	rank := ix.javaRank
	slices.SortFunc(conns, func(a, b int32) int { return int(rank[a]) - int(rank[b]) })
	next := 0
	for _, c := range conns {
		m := &out[idx[next]]
		m.assignedConns = append(m.assignedConns, c)
		next = (next + 1) % len(idx)
	}
	for _, c := range conns {
		for _, t := range cfgTaskCount(c) {
			m := &out[idx[next]]
			m.assignedTasks = append(m.assignedTasks, t)
			next = (next + 1) % len(idx)
		}
	}
	return out
}
