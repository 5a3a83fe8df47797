package plan

// downtime integrates, over the plan's clock, how long each configured piece
// is not running. A piece is running from the end of the round that gave it
// to a live worker until it is stopped (revoked, its worker stops, or an eager
// round begins).
type downtime struct {
	configured pieceSet
	downSince  map[pieceKey]int64 // configured pieces not running now
	total      map[pieceKey]int64 // accumulated ms not running
	longest    map[pieceKey]int64 // longest single outage, ms
	stopped    pieceSet           // pieces that were running and were stopped at least once
	intervals  map[pieceKey][]Interval
	lastStart  int64 // when the last outage ended
}

// newDowntime starts the accounting at time 0 with the configured pieces
// and the set of those running.
func newDowntime(configured []pieceKey, running pieceSet) *downtime {
	d := &downtime{
		configured: pieceSet{},
		downSince:  map[pieceKey]int64{},
		total:      map[pieceKey]int64{},
		longest:    map[pieceKey]int64{},
		stopped:    pieceSet{},
		intervals:  map[pieceKey][]Interval{},
	}
	for _, k := range configured {
		d.configured[k] = true
		if !running[k] {
			d.downSince[k] = 0
		}
	}
	return d
}

func (d *downtime) isRunning(k pieceKey) bool {
	_, down := d.downSince[k]
	return d.configured[k] && !down
}

// stop marks a running piece as stopped at time t; false when it was not running.
func (d *downtime) stop(k pieceKey, t int64) bool {
	if !d.isRunning(k) {
		return false
	}
	d.downSince[k] = t
	d.stopped[k] = true
	return true
}

// start marks a piece as running from time t; false when it was running.
func (d *downtime) start(k pieceKey, t int64) bool {
	since, down := d.downSince[k]
	if !down || !d.configured[k] {
		return false
	}
	d.close(k, since, t)
	delete(d.downSince, k)
	if t > d.lastStart {
		d.lastStart = t
	}
	return true
}

func (d *downtime) close(k pieceKey, since, t int64) {
	gap := t - since
	if gap > 0 {
		d.intervals[k] = append(d.intervals[k], Interval{FromMs: since, ToMs: t})
	}
	d.total[k] += gap
	if gap > d.longest[k] {
		d.longest[k] = gap
	}
}

// reconfigure applies a new set of configured pieces at time t: removed
// pieces stop counting (their open outage is closed), added ones start as not
// running (they never ran, so they do not count as stopped).
func (d *downtime) reconfigure(keys []pieceKey, t int64) {
	next := pieceSet{}
	for _, k := range keys {
		next[k] = true
	}
	for k := range d.configured {
		if next[k] {
			continue
		}
		if since, down := d.downSince[k]; down {
			d.close(k, since, t)
			delete(d.downSince, k)
		}
		delete(d.configured, k)
	}
	for k := range next {
		if !d.configured[k] {
			d.configured[k] = true
			d.downSince[k] = t
		}
	}
}

// finish closes open outages at the end of the timeline and returns the
// pieces still not running then.
func (d *downtime) finish(t int64) []pieceKey {
	open := pieceSet{}
	for k, since := range d.downSince {
		d.close(k, since, t)
		open[k] = true
	}
	d.downSince = map[pieceKey]int64{}
	return open.sorted()
}

// sums returns connector-ms and task-ms not running, and the longest single
// outage of a task (0 when none stopped).
func (d *downtime) sums() (connMs, taskMs, longestTaskMs int64) {
	for k, v := range d.total {
		if k.isConnector() {
			connMs += v
		} else {
			taskMs += v
			if d.longest[k] > longestTaskMs {
				longestTaskMs = d.longest[k]
			}
		}
	}
	return connMs, taskMs, longestTaskMs
}
