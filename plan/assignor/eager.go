package assignor

import "slices"

// eagerDeck is what the eager assignor deals (assignor.md §7): the
// configured connectors in Java name order, then their tasks, connector by
// connector in that order. It depends on the configuration only, so the
// simulator keeps it between rounds: sorting it again every round was most
// of an eager round in a big group.
type eagerDeck struct {
	conns, tasks []int32
}

func newEagerDeck(ix *interner, cfgConns []int32, tasksOf func(c int32) []int32) eagerDeck {
	ix.ensureSorted()
	conns := slices.Clone(cfgConns)
	// Java String.compareTo order, by the interner's precomputed ranks:
	// comparing the names themselves was most of an eager round.
	rank := ix.javaRank
	slices.SortFunc(conns, func(a, b int32) int { return int(rank[a]) - int(rank[b]) })
	d := eagerDeck{conns: conns}
	for _, c := range conns {
		d.tasks = append(d.tasks, tasksOf(c)...)
	}
	return d
}

// eagerRound is the eager assignor: members sorted by id, one cyclic
// iterator dealing connectors then tasks. It returns each member's full
// assignment, indexed like members.
func eagerRound(ix *interner, members []roundMember, cfgConns []int32, tasksOf func(c int32) []int32) []memberOut {
	order := make([]int, len(members))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return javaCompare(members[a].id, members[b].id) })
	return newEagerDeck(ix, cfgConns, tasksOf).deal(order, len(members))
}

// deal hands out the deck: the p-th member in id order (order[p], an index
// of the result) gets the deck's pieces p, p+n, p+2n, ... (n members),
// connectors first, as Java's cyclic iterator does. Every member's lists
// share one allocation.
func (d eagerDeck) deal(order []int, members int) []memberOut {
	out := make([]memberOut, members)
	n := len(order)
	if n == 0 {
		return out
	}
	nc, nt := len(d.conns), len(d.tasks)
	buf := make([]int32, nc+nt)
	for p, m := range order {
		o := &out[m]
		o.assignedConns, buf = dealEvery(d.conns, p, n, buf)
		// The iterator goes on from the connectors to the tasks: the tasks'
		// first index of member p is the one congruent to p (mod n).
		first := ((p-nc)%n + n) % n
		o.assignedTasks, buf = dealEvery(d.tasks, first, n, buf)
	}
	return out
}

// dealEvery is deck[from], deck[from+step], ..., in a list carved from buf
// (returned with the rest of buf).
func dealEvery(deck []int32, from, step int, buf []int32) ([]int32, []int32) {
	k := 0
	if from < len(deck) {
		k = (len(deck) - from + step - 1) / step
	}
	l := buf[:k:k]
	for i := range l {
		l[i] = deck[from+i*step]
	}
	return l, buf[k:]
}
