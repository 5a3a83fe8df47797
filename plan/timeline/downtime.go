package timeline

import "math/bits"

// downtime integrates, over the plan's clock, how long each configured piece
// is not running. A piece is running from the end of the round that gave it
// to a live worker until it is stopped (revoked, its worker stops, or an eager
// round begins). Pieces are the ids of a pieceIndex; the state is kept in
// slices indexed by id (grow and renumber follow the index).
type downtime struct {
	configured []bool
	down       []bool  // configured and not running now
	downSince  []int64 // when it stopped (down only)
	total      []int64 // accumulated ms not running
	longest    []int64 // longest single outage, ms
	stopped    []bool  // was running and was stopped at least once
	outages    []int32 // outages closed (of positive length)
	firstFrom  []int64 // start of the first of them
	lastTo     []int64 // end of the last of them
	spans      spanLog // every outage closed, in the order they closed
	keepSpans  bool    // spans are kept (not in lite timelines)
	lastStart  int64   // when the last outage ended
	cycles
}

// cycles keeps lazy eager rounds (eagerdeal.go): each stops every running
// piece at its start and starts it again at its end, an outage of that
// round's length for each. Instead of touching every piece, a round is
// counted once; a piece adds the rounds it ran through (settle) when it
// stops, starts, or is read. down lists the pieces that stopped since the
// last round (a round starts those too).
type cycles struct {
	lazy bool
	n    int32   // rounds so far
	from []int64 // each round's start
	// cum[i] is the length of rounds 0..i-1 together (len n+1); peak[j][i]
	// is the longest of rounds i..i+2^j-1 (a sparse table: the longest of
	// any run of rounds in two reads).
	cum   []int64
	peak  [][]int64
	since []int32 // piece id -> rounds already added to it
	down  []int32 // pieces stopped or configured not running since the last round (may repeat, or run again)
}

// lazyCycles keeps eager rounds as cycles.
func (d *downtime) lazyCycles() {
	d.cycles.lazy, d.cycles.cum = true, []int64{0}
	for id, down := range d.down {
		if down {
			d.cycles.down = append(d.cycles.down, int32(id))
		}
	}
}

// cycle is an eager round from t0 to t1 that dealt every configured piece
// (dealt: there were some): the running ones stop and start again, the
// others start.
func (d *downtime) cycle(t0, t1 int64, dealt bool) {
	c := &d.cycles
	ms := t1 - t0
	c.from = append(c.from, t0)
	c.cum = append(c.cum, c.cum[c.n]+ms)
	c.n++
	c.addPeak(ms)
	for _, id := range c.down {
		d.start(id, t1)
	}
	c.down = c.down[:0]
	if dealt && t1 > d.lastStart {
		d.lastStart = t1
	}
}

// addPeak extends the sparse table by the round just added (n-1).
func (c *cycles) addPeak(ms int64) {
	if len(c.peak) == 0 {
		c.peak = [][]int64{nil}
	}
	c.peak[0] = append(c.peak[0], ms)
	for j := 1; 1<<j <= int(c.n); j++ {
		if j == len(c.peak) {
			c.peak = append(c.peak, nil)
		}
		i, half := int(c.n)-1<<j, 1<<(j-1)
		c.peak[j] = append(c.peak[j], max(c.peak[j-1][i], c.peak[j-1][i+half]))
	}
}

// ranThrough is the length of rounds first..n-1 together and the longest
// of them.
func (c *cycles) ranThrough(first int32) (total, longest int64) {
	total = c.cum[c.n] - c.cum[first]
	k := int(c.n - first)
	j := bits.Len(uint(k)) - 1
	return total, max(c.peak[j][first], c.peak[j][int(c.n)-1<<j])
}

// settle adds to piece id the lazy rounds it ran through. Round lengths
// are all positive (the calibrated model's stop) or all the round time,
// so a piece counts an outage per round or none.
func (d *downtime) settle(id int32) {
	c := &d.cycles
	k := c.n - c.since[id]
	if k == 0 {
		return
	}
	c.since[id] = c.n
	if !d.isRunning(id) {
		return
	}
	d.stopped[id] = true
	total, longest := c.ranThrough(c.n - k)
	if total > 0 {
		if d.outages[id] == 0 {
			d.firstFrom[id] = c.from[c.n-k]
		}
		d.outages[id] += k
		d.lastTo[id] = c.from[c.n-1] + c.cum[c.n] - c.cum[c.n-1]
		d.total[id] += total
		d.longest[id] = max(d.longest[id], longest)
	}
}

// settleAll settles every piece (before reading or renumbering them all).
func (d *downtime) settleAll() {
	if d.cycles.lazy {
		for id := range d.configured {
			d.settle(int32(id))
		}
	}
}

// newDowntime starts the accounting at time 0 with the configured pieces
// and the set of those running (ids below n).
func newDowntime(n int, configured []int32, running func(id int32) bool, keepSpans bool) *downtime {
	d := &downtime{keepSpans: keepSpans}
	d.grow(n)
	for _, id := range configured {
		d.configured[id] = true
		if !running(id) {
			d.down[id] = true
		}
	}
	return d
}

// grow makes room for ids below n.
func (d *downtime) grow(n int) {
	for len(d.configured) < n {
		d.configured = append(d.configured, false)
		d.down = append(d.down, false)
		d.downSince = append(d.downSince, 0)
		d.total = append(d.total, 0)
		d.longest = append(d.longest, 0)
		d.stopped = append(d.stopped, false)
		d.outages = append(d.outages, 0)
		d.firstFrom = append(d.firstFrom, 0)
		d.lastTo = append(d.lastTo, 0)
		d.cycles.since = append(d.cycles.since, d.cycles.n)
	}
}

// renumber follows a pieceIndex renumbering (remap: old id -> new id) and
// grows to n ids.
func (d *downtime) renumber(remap []int32, n int) {
	d.settleAll()
	old := *d
	*d = downtime{keepSpans: old.keepSpans, lastStart: old.lastStart, spans: old.spans,
		cycles: cycles{lazy: old.lazy, n: old.n, from: old.from, cum: old.cum, peak: old.peak}}
	d.grow(n)
	for o, id := range remap {
		d.configured[id], d.down[id], d.downSince[id] = old.configured[o], old.down[o], old.downSince[o]
		d.total[id], d.longest[id], d.stopped[id] = old.total[o], old.longest[o], old.stopped[o]
		d.outages[id], d.firstFrom[id], d.lastTo[id] = old.outages[o], old.firstFrom[o], old.lastTo[o]
	}
	for _, o := range old.cycles.down {
		d.cycles.down = append(d.cycles.down, remap[o])
	}
	for _, c := range d.spans {
		for i := range c {
			c[i].id = remap[c[i].id]
		}
	}
}

func (d *downtime) isRunning(id int32) bool { return d.configured[id] && !d.down[id] }

// stop marks a running piece as stopped at time t; false when it was not running.
func (d *downtime) stop(id int32, t int64) bool {
	if !d.isRunning(id) {
		return false
	}
	if d.cycles.lazy {
		d.settle(id)
		d.cycles.down = append(d.cycles.down, id)
	}
	d.down[id], d.downSince[id], d.stopped[id] = true, t, true
	return true
}

// start marks a piece as running from time t; false when it was running.
func (d *downtime) start(id int32, t int64) bool {
	if !d.down[id] || !d.configured[id] {
		return false
	}
	d.close(id, d.downSince[id], t)
	d.down[id] = false
	d.cycles.since[id] = d.cycles.n
	if t > d.lastStart {
		d.lastStart = t
	}
	return true
}

func (d *downtime) close(id int32, since, t int64) {
	gap := t - since
	if gap > 0 {
		if d.keepSpans {
			d.spans.add(span{id: id, Interval: Interval{FromMs: since, ToMs: t}})
		}
		if d.outages[id] == 0 {
			d.firstFrom[id] = since
		}
		d.outages[id]++
		d.lastTo[id] = t
	}
	d.total[id] += gap
	if gap > d.longest[id] {
		d.longest[id] = gap
	}
}

// reconfigure applies a new set of configured pieces at time t: removed
// pieces stop counting (their open outage is closed), added ones start as not
// running (they never ran, so they do not count as stopped).
func (d *downtime) reconfigure(next []bool, t int64) {
	d.settleAll()
	for id := range d.configured {
		switch {
		case d.configured[id] && !next[id]:
			if d.down[id] {
				d.close(int32(id), d.downSince[id], t)
				d.down[id] = false
			}
			d.configured[id] = false
		case !d.configured[id] && next[id]:
			d.configured[id], d.down[id], d.downSince[id] = true, true, t
			if d.cycles.lazy {
				d.cycles.down = append(d.cycles.down, int32(id))
			}
		}
	}
}

// finish closes open outages at the end of the timeline and returns the
// pieces still not running then, in id (output) order.
func (d *downtime) finish(t int64) []int32 {
	d.settleAll()
	var open []int32
	for id, down := range d.down {
		if down {
			d.close(int32(id), d.downSince[id], t)
			d.down[id] = false
			open = append(open, int32(id))
		}
	}
	return open
}

// sums returns connector-ms and task-ms not running, and the longest single
// outage of a task (0 when none stopped).
func (d *downtime) sums(x *pieceIndex) (connMs, taskMs, longestTaskMs int64) {
	for id, v := range d.total {
		if x.isConnector(int32(id)) {
			connMs += v
		} else {
			taskMs += v
			if d.longest[id] > longestTaskMs {
				longestTaskMs = d.longest[id]
			}
		}
	}
	return connMs, taskMs, longestTaskMs
}

// taskMsBy is the task-ms not running up to time t, counting open outages
// up to t: a lower bound of the total at any end after t, since outages
// close no earlier than now and nothing is ever taken off the total.
func (d *downtime) taskMsBy(x *pieceIndex, t int64) int64 {
	var ms int64
	for id, v := range d.total {
		if x.isConnector(int32(id)) {
			continue
		}
		if d.isRunning(int32(id)) && d.cycles.since[id] < d.cycles.n {
			ms += d.cycles.cum[d.cycles.n] - d.cycles.cum[d.cycles.since[id]]
		}
		ms += v
		if d.down[id] && d.downSince[id] < t {
			ms += t - d.downSince[id]
		}
	}
	return ms
}

// span is one closed outage of a piece. Outages are logged in one list as
// they close and grouped by piece at the end (intervals): appending to one
// list per piece cost a cache miss per piece per round under eager, where
// every piece stops in every round.
type span struct {
	id int32
	Interval
}

// intervals groups the logged outages by piece, each piece's in time order
// (the order they closed); nil for a piece that never stopped.
func (d *downtime) intervals() [][]Interval {
	out := make([][]Interval, len(d.configured))
	count := make([]int, len(d.configured))
	n := 0
	for _, c := range d.spans {
		for _, s := range c {
			count[s.id]++
		}
		n += len(c)
	}
	all := make([]Interval, n)
	at := 0
	for id, n := range count {
		if n > 0 {
			out[id] = all[at : at : at+n]
		}
		at += n
	}
	for _, c := range d.spans {
		for _, s := range c {
			out[s.id] = append(out[s.id], s.Interval)
		}
	}
	return out
}

// spanLog is a list of spans in fixed-size chunks, so that growing it never
// copies what it holds (an eager roll of a big cluster logs millions).
type spanLog [][]span

const spanChunk = 1 << 14

func (l *spanLog) add(s span) {
	n := len(*l)
	if n == 0 || len((*l)[n-1]) == spanChunk {
		*l = append(*l, make([]span, 0, spanChunk))
		n++
	}
	(*l)[n-1] = append((*l)[n-1], s)
}
