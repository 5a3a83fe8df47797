package timeline

import (
	"slices"

	"github.com/connectscope/connectscope/plan/assignor"
)

// Eager rounds of a plan that keeps no per-piece detail (the table, the
// compact form, the advisor): the eager assignor's answer depends on the
// member list and the deck only (assignor.md §7: the configured connectors
// in Java order then their tasks, dealt cyclically over the members in
// Java id order), so a member's holdings after a round are its place in
// the deal, and what the outputs count (its connectors and tasks, what it
// kept) follows from places without dealing a card. Every running piece
// stops when an eager round starts and starts again when it ends, which
// the outage accounting keeps as a cycle (downtime.cycle) instead of
// touching every piece. A round costs its members, not its pieces; a
// member's list is made when something reads it (a stop, the end).

// dealRound applies an eager round given as places in the deal: every
// member's new counts and what it kept, into view's totals.
func (e *engine) dealRound(rd assignor.EagerDeal, view *RoundView) {
	if len(rd.Places) != len(e.joined) {
		panic("plan: the engine's members are out of step with the simulator's")
	}
	if rd.DeckID != e.deckID {
		e.materializeAll() // holdings dealt from the old deck, as lists
		e.setDeck(rd)
	}
	n := len(rd.Places)
	if n == 0 {
		return
	}
	e.pendingCycle = e.now
	nc, all := len(rd.Conns), len(e.deckIDs)
	for i, m := range e.joined {
		p := rd.Places[i]
		keepC, keepT := e.kept(m, p, n)
		prevC, prevT := m.conns, m.tasks
		m.owned, m.place, m.of = nil, int32(p), int32(n)
		m.conns, m.tasks = congruent(0, nc, p, n), congruent(nc, all, p, n)
		e.started(m, m.conns+m.tasks)
		if rvC, rvT, asC, asT := prevC-keepC, prevT-keepT, m.conns-keepC, m.tasks-keepT; rvC+rvT+asC+asT > 0 {
			view.changed = true
			view.Totals.add(rvC, rvT, asC, asT)
		}
	}
}

// setDeck numbers the deck of rd in piece ids.
func (e *engine) setDeck(rd assignor.EagerDeal) {
	e.deckID = rd.DeckID
	e.deckIDs = e.deckIDs[:0]
	for _, c := range rd.Conns {
		e.deckIDs = append(e.deckIDs, e.ix.fromSim(e.sim, c, false))
	}
	for _, t := range rd.Tasks {
		e.deckIDs = append(e.deckIDs, e.ix.fromSim(e.sim, t, true))
	}
	e.deckConns = len(rd.Conns)
	e.deckPos = slices.Grow(e.deckPos[:0], e.ix.len())[:e.ix.len()]
	for i := range e.deckPos {
		e.deckPos[i] = -1
	}
	for k, id := range e.deckIDs {
		e.deckPos[id] = int32(k)
	}
}

// kept counts the connectors and tasks m holds now that place p of n
// members is dealt too.
func (e *engine) kept(m *engineMember, p, n int) (conns, tasks int) {
	if m.of > 0 { // the last deal, same deck: the cards both places get
		r, l, ok := e.meet(p, n, int(m.place), int(m.of))
		if !ok {
			return 0, 0
		}
		return congruent(0, e.deckConns, r, l), congruent(e.deckConns, len(e.deckIDs), r, l)
	}
	for _, id := range m.owned {
		if k := e.deckPos[id]; k >= 0 && int(k)%n == p {
			if e.ix.isConnector(id) {
				conns++
			} else {
				tasks++
			}
		}
	}
	return conns, tasks
}

// ownedOf is what m owns, as a sorted list (made from its place in the
// deal when it has one).
func (e *engine) ownedOf(m *engineMember) idList {
	if m.of > 0 {
		l := make(idList, 0, m.conns+m.tasks)
		for k := int(m.place); k < len(e.deckIDs); k += int(m.of) {
			l = append(l, e.deckIDs[k])
		}
		slices.Sort(l)
		m.owned, m.of = l, 0
	}
	return m.owned
}

// materializeAll makes every member's list (before the ids or the deck
// change, and at the end).
func (e *engine) materializeAll() {
	for _, m := range e.joined {
		e.ownedOf(m)
	}
}

// congruent counts the integers in [a, b) congruent to r modulo n (0 <= r < n).
func congruent(a, b, r, n int) int {
	upTo := func(x int) int {
		if x <= r {
			return 0
		}
		return (x - r + n - 1) / n
	}
	if b <= a {
		return 0
	}
	return upTo(b) - upTo(a)
}

// meet is the integers congruent to p modulo n and to q modulo k (the
// cards two places of two deals share): those congruent to r modulo l, by
// the Chinese remainder theorem; ok false when there are none. The round's
// members share n and most share k: the gcd is kept between calls.
func (e *engine) meet(p, n, q, k int) (r, l int, ok bool) {
	c := &e.crt
	if c.n != n || c.k != k {
		c.n, c.k = n, k
		c.g, c.x = egcd(n, k)
	}
	g := c.g
	if (q-p)%g != 0 {
		return 0, 0, false
	}
	kg := k / g
	t := ((q - p) / g % kg) * (c.x % kg) % kg
	if t < 0 {
		t += kg
	}
	return p + n*t, n * kg, true
}

// crtCache is meet's gcd of n and k, and x with x*n = gcd (mod k).
type crtCache struct{ n, k, g, x int }

// egcd is gcd(a, b) and x with a*x = gcd (mod b).
func egcd(a, b int) (g, x int) {
	x0, x1 := 1, 0
	for b != 0 {
		q := a / b
		a, b = b, a-q*b
		x0, x1 = x1, x0-q*x1
	}
	return a, x0
}
