package assignor

// regrouper reproduces decode(serialize(C, T)) of Connect's assignment
// encoding (assignor.md §6.3 rule 3): connectors in the iteration order of a
// HashSet copied from C, tasks grouped by connector (C's connectors first in
// that order, then others by first appearance), repeats dropped.
type regrouper struct {
	ix  *interner
	jdk int

	cstamp, tstamp []uint32 // epoch marks per connector / task id
	group          []int32  // group index per connector (valid when cstamp matches)
	epoch          uint32
	hashes         []int32
	order          []int32
	counts         []int32
}

func (g *regrouper) nextEpoch() uint32 {
	g.cstamp = growTo(g.cstamp, g.ix.nConns())
	g.tstamp = growTo(g.tstamp, g.ix.nTasks())
	g.group = growTo(g.group, g.ix.nConns())
	g.epoch++
	if g.epoch == 0 {
		// Wrapped: old marks could match again.
		clear(g.cstamp)
		clear(g.tstamp)
		g.epoch = 1
	}
	return g.epoch
}

// regroup returns new slices.
func (g *regrouper) regroup(conns, tasks []int32) ([]int32, []int32) {
	outC, outT := g.regroupTo(conns, tasks, make([]int32, 0, len(conns)), make([]int32, 0, len(tasks)))
	return outC, outT
}

// regroupTo is regroup writing into outC and outT (reused from length 0).
func (g *regrouper) regroupTo(conns, tasks, outC, outT []int32) ([]int32, []int32) {
	ep := g.nextEpoch()
	// Connectors: HashSet copy order (sized from the list length), repeats dropped.
	g.hashes = g.hashes[:0]
	for _, c := range conns {
		g.hashes = append(g.hashes, g.ix.connHash[c])
	}
	g.order = hashOrder(g.hashes, copyCap(len(conns), g.jdk), g.order)
	outC = outC[:0]
	ngroups := int32(0)
	for _, i := range g.order {
		c := conns[i]
		if g.cstamp[c] == ep {
			continue
		}
		g.cstamp[c] = ep
		g.group[c] = ngroups
		ngroups++
		outC = append(outC, c)
	}
	outT = outT[:0]
	if len(tasks) == 0 {
		return outC, outT
	}
	// Tasks: stable counting sort by group.
	tc := g.ix.taskConn
	for _, t := range tasks {
		c := tc[t]
		if g.cstamp[c] != ep {
			g.cstamp[c] = ep
			g.group[c] = ngroups
			ngroups++
		}
	}
	g.counts = growTo(g.counts, int(ngroups)+1)
	clear(g.counts)
	for _, t := range tasks {
		g.counts[g.group[tc[t]]+1]++
	}
	for i := int32(1); i <= ngroups; i++ {
		g.counts[i] += g.counts[i-1]
	}
	sorted := growTo(outT, len(tasks))
	for _, t := range tasks {
		gi := g.group[tc[t]]
		sorted[g.counts[gi]] = t
		g.counts[gi]++
	}
	outT = sorted[:0]
	for _, t := range sorted {
		if g.tstamp[t] == ep {
			continue
		}
		g.tstamp[t] = ep
		outT = append(outT, t)
	}
	return outC, outT
}

// prependMinus returns front ++ (held − removed), without repeats, in one
// new slice.
func (g *regrouper) prependMinus(front, held, removed []int32, conns bool) []int32 {
	removedMark := g.nextEpoch() // removed pieces carry this mark,
	added := g.nextEpoch()       // pieces already in the result this one.
	if added < removedMark {
		removedMark = g.nextEpoch() // wrapped: marks were cleared, take another fresh one
	}
	stamp := g.tstamp
	if conns {
		stamp = g.cstamp
	}
	for _, x := range removed {
		stamp[x] = removedMark
	}
	res := make([]int32, 0, len(front)+len(held))
	// Assigned pieces go first; a piece both assigned and still held keeps its front position.
	for _, x := range front {
		if stamp[x] != added {
			stamp[x] = added
			res = append(res, x)
		}
	}
	for _, x := range held {
		if m := stamp[x]; m != added && m != removedMark {
			stamp[x] = added
			res = append(res, x)
		}
	}
	return res
}

// DecodedOrder returns the order in which a leader decodes pieces that a
// worker serialized in the given order (assignor.md §6.3 rule 3): connectors
// in Java HashSet-copy order (JDK-dependent sizing; jdk 0 = 17), tasks
// grouped by connector, repeats dropped. A sandbox worker can use it to
// predict its own metadata; it is also the entry order Connect writes.
func DecodedOrder(p Pieces, jdk int) Pieces {
	if jdk == 0 {
		jdk = 17
	}
	ix := newInterner()
	c, t := ix.internPieces(p)
	g := regrouper{ix: ix, jdk: jdk}
	c, t = g.regroup(c, t)
	return ix.orderedPieces(c, t)
}
