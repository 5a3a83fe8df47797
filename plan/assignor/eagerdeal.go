package assignor

import "slices"

// An eager round whose cards are left undealt: the eager assignor's answer
// is a function of the member list and the deck alone (eager.go), so a
// caller that only counts what each member gets (the plans' tables and
// compact form) can take each member's place in the deal instead of the
// lists, and a round costs the members, not the pieces. The members' held
// lists are made from their place when something reads them.

// EagerDeal is an eager round as places in the deal: the member at place
// p of n members gets the deck's cards p, p+n, p+2n, ... of Conns followed
// by Tasks (one cyclic iterator over both, assignor.md §7).
type EagerDeal struct {
	Generation int
	// Conns and Tasks are the deck, in the simulator's ids (ConnectorName,
	// TaskOf); DeckID changes whenever the deck does (a new configuration).
	Conns, Tasks []int32
	DeckID       int
	// Places is each member's place in the deal, by join order (Members).
	Places []int
}

// dealt is a member's place in an eager deal whose cards were not handed
// out yet (deck nil: the held lists are the member's own).
type dealt struct {
	deck      *eagerDeck
	place, of int
}

// cards is the cards of place p of n in deck: p, p+n, ... of the
// connectors then the tasks, carved from one new allocation.
func (d *dealt) cards() (conns, tasks []int32) {
	nc := len(d.deck.conns)
	buf := make([]int32, (nc+len(d.deck.tasks)-d.place+d.of-1)/d.of)
	conns, buf = dealEvery(d.deck.conns, d.place, d.of, buf)
	tasks, _ = dealEvery(d.deck.tasks, ((d.place-nc)%d.of+d.of)%d.of, d.of, buf)
	return conns, tasks
}

// held is what w holds, made from its place in the last deal if need be
// (without keeping it: a Clone reads its source side by side with others).
func (w *simWorker) held() (conns, tasks []int32) {
	if w.deal.deck != nil {
		return w.deal.cards()
	}
	return w.conns, w.tasks
}

// materialize hands out w's cards of the last deal, if not yet done.
func (w *simWorker) materialize() {
	if w.deal.deck != nil {
		w.conns, w.tasks = w.deal.cards()
		w.deal = dealt{}
	}
}

// RebalanceDeal is an eager round (Rebalance under the eager protocol)
// returning each member's place in the deal instead of its cards. It is
// for eager simulators only; the slice is reused by the next round.
func (s *Sim) RebalanceDeal() EagerDeal {
	s.gen++
	out := EagerDeal{Generation: s.gen}
	if len(s.workers) == 0 {
		return out
	}
	d := s.eagerDeck()
	for i, w := range s.workers {
		w.pos = i
	}
	s.places = slices.Grow(s.places[:0], len(s.workers))[:len(s.workers)]
	n := len(s.byJava)
	for p, w := range s.byJava {
		s.places[w.pos] = p
		w.deal = dealt{deck: d, place: p, of: n}
		w.conns, w.tasks = nil, nil
		w.decoded, w.clean = false, false
	}
	out.Conns, out.Tasks, out.DeckID, out.Places = d.conns, d.tasks, s.deckID, s.places
	return out
}

// eagerDeck is the deck of the current configuration, made on first use.
func (s *Sim) eagerDeck() *eagerDeck {
	if s.deck == nil {
		d := newEagerDeck(s.ix, s.cfgConns, func(c int32) []int32 { return s.taskIDsOf[c] })
		s.deck = &d
		s.deckID++
	}
	return s.deck
}
