package timeline

// outageSums sums every piece's outages, for the compact form, sorted.
func outageSums(e *engine) []OutageSum {
	out := []OutageSum{}
	d := e.acct
	for id, n := range d.outages {
		if n == 0 {
			continue
		}
		kind, host := e.outageOf(int32(id))
		out = append(out, OutageSum{Piece: e.ix.name(int32(id)), Kind: kind, Host: host, NotRunningMs: d.total[id], Outages: int(n),
			LongestMs: d.longest[id], FirstFromMs: d.firstFrom[id], LastToMs: d.lastTo[id]})
	}
	return out
}

// RoundTotals counts what one round changed, over all workers.
type RoundTotals struct {
	Workers            int `json:"workers"` // workers revoked from or assigned to
	RevokedConnectors  int `json:"revoked_connectors"`
	RevokedTasks       int `json:"revoked_tasks"`
	AssignedConnectors int `json:"assigned_connectors"`
	AssignedTasks      int `json:"assigned_tasks"`
}

func (t *RoundTotals) add(revC, revT, asC, asT int) {
	t.Workers++
	t.RevokedConnectors += revC
	t.RevokedTasks += revT
	t.AssignedConnectors += asC
	t.AssignedTasks += asT
}

// OutageSum is one piece's outages summed: how many, for how long in all,
// the longest, and the span from the first stop to the last start (the
// full form lists every interval).
type OutageSum struct {
	Piece        string  `json:"piece"`
	Kind         string  `json:"kind"`
	Host         *string `json:"host"`
	Name         *string `json:"name"`
	NotRunningMs int64   `json:"not_running_ms"`
	Outages      int     `json:"outages"`
	LongestMs    int64   `json:"longest_ms"`
	FirstFromMs  int64   `json:"first_from_ms"`
	LastToMs     int64   `json:"last_to_ms"`
}

// CompactTimeline is a Timeline in the compact JSON form (--compact).
type CompactTimeline struct {
	Protocol string         `json:"protocol"`
	Events   []EventView    `json:"events"`
	Rounds   []CompactRound `json:"rounds"`
	Summary  Summary        `json:"summary"`
	Outages  []OutageSum    `json:"outages"`
	Notes    []string       `json:"notes"`
}

// CompactRound is a round in the compact form: its totals, and the workers
// it revoked something from or assigned something to, as the full form
// lists them. Under eager every member is sent a whole new assignment in
// every round (and most pieces move when a member leaves or joins), so an
// eager round lists no worker: its totals say how much it moved.
type CompactRound struct {
	RoundHead
	Totals  RoundTotals       `json:"totals"`
	Workers []WorkerRoundView `json:"workers"`
}

// Compact is the timeline in the compact form (nil for nil). It reads the
// rounds' totals and the outage sums, which every timeline but the
// advisor's keeps; rows of workers told nothing, if the timeline has them,
// are left out.
func (tl *Timeline) Compact() *CompactTimeline {
	if tl == nil {
		return nil
	}
	c := &CompactTimeline{Protocol: tl.Protocol, Events: tl.Events, Rounds: make([]CompactRound, 0, len(tl.Rounds)),
		Summary: tl.Summary, Outages: tl.Sums, Notes: tl.Notes}
	if c.Outages == nil {
		c.Outages = []OutageSum{}
	}
	for _, rd := range tl.Rounds {
		cr := CompactRound{RoundHead: rd.RoundHead, Totals: rd.Totals, Workers: []WorkerRoundView{}}
		if tl.Protocol != "eager" {
			for _, w := range rd.Workers {
				if len(w.RevokedConnectors)+len(w.RevokedTasks)+len(w.AssignedConnectors)+len(w.AssignedTasks) > 0 {
					cr.Workers = append(cr.Workers, w)
				}
			}
		}
		c.Rounds = append(c.Rounds, cr)
	}
	return c
}
