package history

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
)

// Event kinds of LastEvent.
const (
	EventStop = "stop" // a worker stopped all its work cleanly (UNASSIGNED for each piece it ran)
	EventJoin = "join" // a worker wrote for the first time, after others had
	// EventCrash is a worker whose pieces were next written RUNNING by
	// others with no UNASSIGNED from it in between, and that took no part
	// in that round: it was noticed gone after the session timeout.
	EventCrash = "crash"
)

// LastEvent is the last membership change the status topic shows: a worker
// that stopped all its work, or one that wrote for the first time, with
// what it cost (Real) and, filled in by a caller that can plan
// (plan/whatif.PredictLast), what a plan from the state just before it
// predicts.
type LastEvent struct {
	Kind   string `json:"kind"`   // EventStop, EventCrash or EventJoin
	Worker string `json:"worker"` // HOST:PORT
	// ReturnedAfterMs is, for a stop or crash, how long after it the worker wrote
	// again (at most its restart time); null when it has not.
	ReturnedAfterMs *int64 `json:"returned_after_ms"`
	// ElsewhereAfterMs is, for a clean stop, how long after it the first
	// of its pieces ran on another worker (before it came back): the delay
	// plus a round or two, so at least scheduled.rebalance.max.delay.ms
	// (under eager, which holds nothing, just the rounds); null otherwise.
	ElsewhereAfterMs *int64  `json:"elsewhere_after_ms"`
	StartMs          int64   `json:"start_ms"`    // its first record (epoch ms)
	Generations      []int32 `json:"generations"` // the rebalances from it to the end
	Real             Cost    `json:"real"`
	// Predicted is a plan's cost from the state just before the event
	// (Before), Plan the plan as a command line, Difference predicted
	// minus real; null when no plan was made.
	Predicted  *Cost      `json:"predicted"`
	Plan       string     `json:"plan"`
	Difference *CostDelta `json:"difference"`
	// Before is what each worker (HOST:PORT) ran just before the event:
	// connector names and task ids, sorted.
	Before map[string][]string `json:"before"`
	// DefaultsAssumed lists the plan's settings that are Kafka's defaults
	// because nothing gave them (name=value); empty when none or no plan.
	DefaultsAssumed []string `json:"defaults_assumed"`
	Notes           []string `json:"notes"`
	// noticedMs is, for a crash, when its first piece ran elsewhere: the
	// cost counts what changed from then on.
	noticedMs int64
	// written are the pieces the status topic wrote before the event.
	written map[string]bool
}

// WrittenBefore says whether the status topic shows piece (a connector or
// a task id) before the event: one it does not was created since, or its
// earlier records were compacted away.
func (ev *LastEvent) WrittenBefore(piece string) bool { return ev.written[piece] }

// Cost is what an event cost: the pieces that stopped, the task-seconds
// not running, and when every piece that stopped ran again (ms after the
// event; null when one has not).
type Cost struct {
	ConnectorsStopped int    `json:"connectors_stopped"`
	TasksStopped      int    `json:"tasks_stopped"`
	TaskMsNotRunning  int64  `json:"task_ms_not_running"`
	AllRunningAfterMs *int64 `json:"all_running_after_ms"`
}

// CostDelta is predicted minus real; TaskSecondsError is that difference
// as a share of the real task-seconds (null when they were 0);
// AllRunningAfterMs is null when either side has no time.
type CostDelta struct {
	ConnectorsStopped int      `json:"connectors_stopped"`
	TasksStopped      int      `json:"tasks_stopped"`
	TaskMsNotRunning  int64    `json:"task_ms_not_running"`
	TaskSecondsError  *float64 `json:"task_seconds_error"`
	AllRunningAfterMs *int64   `json:"all_running_after_ms"`
}

// Delta is p minus r.
func Delta(p, r Cost) *CostDelta {
	d := &CostDelta{ConnectorsStopped: p.ConnectorsStopped - r.ConnectorsStopped, TasksStopped: p.TasksStopped - r.TasksStopped,
		TaskMsNotRunning: p.TaskMsNotRunning - r.TaskMsNotRunning}
	if r.TaskMsNotRunning > 0 {
		e := float64(d.TaskMsNotRunning) / float64(r.TaskMsNotRunning)
		d.TaskSecondsError = &e
	}
	if p.AllRunningAfterMs != nil && r.AllRunningAfterMs != nil {
		a := *p.AllRunningAfterMs - *r.AllRunningAfterMs
		d.AllRunningAfterMs = &a
	}
	return d
}

// entry is one decoded status record.
type entry struct {
	piece, state, worker string
	task                 bool
	gen                  int32
	at                   int64
}

// entries decodes the status records that name a piece, a worker and a
// time, in time order: by timestamp, then partition and offset (a piece's
// records share a partition, so their order holds). undated counts those
// without a time, left out.
func entries(records []inspect.Record) (out []entry, undated int) {
	type keyed struct {
		entry
		part int32
		off  int64
	}
	var ks []keyed
	for _, r := range records {
		piece, task, ok := pieceOf(r.Key)
		if !ok || r.Value == nil {
			continue
		}
		var s status
		if json.Unmarshal(r.Value, &s) != nil || s.WorkerID == "" {
			continue
		}
		if r.Timestamp <= 0 {
			undated++
			continue
		}
		ks = append(ks, keyed{entry{piece: piece, task: task, state: s.State, worker: s.WorkerID, gen: s.Generation, at: r.Timestamp}, r.Partition, r.Offset})
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.at != b.at {
			return a.at < b.at
		}
		if a.part != b.part {
			return a.part < b.part
		}
		return a.off < b.off
	})
	out = make([]entry, len(ks))
	for i, k := range ks {
		out[i] = k.entry
	}
	return out, undated
}

// lastEvent finds the last stop, crash or join and measures it, counting
// the configured pieces only (nil: all); nil when the records show none.
func lastEvent(es []entry, configured Configured) *LastEvent {
	var ev *LastEvent
	running := map[string]map[string]bool{} // worker -> pieces whose last record is RUNNING there
	prev := map[string]entry{}              // piece -> its last record
	lastAt := map[string]int{}              // worker -> the index of its last record
	upTo := 0                               // the records before the event
	for i, e := range es {
		if _, seen := lastAt[e.worker]; !seen && len(lastAt) > 0 {
			// A joiner writes once it runs work, a round after the one
			// that revoked work for it: the join starts with that round.
			start := i
			for start > 0 && es[start-1].gen >= e.gen-1 && es[start-1].gen < e.gen {
				start--
			}
			ev = &LastEvent{Kind: EventJoin, Worker: e.worker, StartMs: es[start].at}
			ev.Before, upTo = beforeOf(es[:start]), start
		}
		if p, ok := prev[e.piece]; ok && e.state == "RUNNING" && p.state == "RUNNING" && p.worker != e.worker &&
			!sameEvent(ev, EventStop, p.worker) && !sameEvent(ev, EventCrash, p.worker) && gone(es[i:], p.worker, e.gen) {
			// Its piece runs elsewhere with no UNASSIGNED from it, it did
			// not stop cleanly, and it writes nothing in this round: it
			// crashed. A crash writes nothing, so it is dated from its
			// last record.
			ev = &LastEvent{Kind: EventCrash, Worker: p.worker, StartMs: es[lastAt[p.worker]].at, Before: beforeOf(es[:i]), noticedMs: e.at}
			upTo = lastAt[p.worker] + 1
		}
		lastAt[e.worker] = i
		prev[e.piece] = e
		for _, pieces := range running {
			delete(pieces, e.piece)
		}
		if e.state == "RUNNING" {
			if running[e.worker] == nil {
				running[e.worker] = map[string]bool{}
			}
			running[e.worker][e.piece] = true
			continue
		}
		if e.state == "UNASSIGNED" && !sameEvent(ev, EventStop, e.worker) && !revokedOnly(es[i:], e) && leftBehind(es[i+1:], e.worker, running[e.worker]) {
			// It stopped what it ran and the rest (pieces whose stop it
			// did not write, as a shutting-down worker's sink tasks) runs
			// elsewhere before it writes again: a clean stop, starting at
			// the first UNASSIGNED of this batch (same worker and generation).
			start := i
			for start > 0 && es[start-1].worker == e.worker && es[start-1].gen == e.gen && es[start-1].state == "UNASSIGNED" {
				start--
			}
			ev = &LastEvent{Kind: EventStop, Worker: e.worker, StartMs: es[start].at, Before: beforeOf(es[:start])}
			upTo = start
		}
	}
	if ev == nil {
		return nil
	}
	ev.written = map[string]bool{}
	for _, e := range es[:upTo] {
		ev.written[e.piece] = true
	}
	measure(ev, es, configured)
	return ev
}

// sameEvent says whether a record of worker belongs to the event of that
// kind already found (the rest of its batch, or of its moved pieces).
func sameEvent(ev *LastEvent, kind, worker string) bool {
	return ev != nil && ev.Kind == kind && ev.Worker == worker
}

// leftBehind says whether every piece a worker still runs is next written
// by another worker as RUNNING (or by it as UNASSIGNED) before the worker
// runs anything again: it left them. Pieces not written again leave it
// undecided, so no.
func leftBehind(rest []entry, worker string, still map[string]bool) bool {
	open := len(still)
	done := map[string]bool{}
	for _, x := range rest {
		if open == 0 {
			return true
		}
		if x.worker == worker && x.state == "RUNNING" {
			return false
		}
		if still[x.piece] && !done[x.piece] && (x.state == "RUNNING" || x.worker == worker) {
			done[x.piece] = true
			open--
		}
	}
	return open == 0
}

// gone says whether a worker writes nothing from generation gen-1 to gen+1
// in what follows: a live one, whose pieces moved in a rebalance, takes
// part in it.
func gone(rest []entry, worker string, gen int32) bool {
	for _, x := range rest {
		if x.worker == worker && x.gen >= gen-1 && x.gen <= gen+1 {
			return false
		}
	}
	return true
}

// revokedOnly says whether a worker that gave up its last piece runs work
// again in the next generation: an eager round's revocation, not a stop.
func revokedOnly(rest []entry, e entry) bool {
	for _, x := range rest {
		if x.worker == e.worker && x.state == "RUNNING" {
			return x.gen <= e.gen+1
		}
	}
	return false
}

// beforeOf is what ran where after es: each piece on the worker of its
// last RUNNING record.
func beforeOf(es []entry) map[string][]string {
	last := map[string]entry{}
	for _, e := range es {
		last[e.piece] = e
	}
	out := map[string][]string{}
	for p, e := range last {
		if e.state == "RUNNING" {
			out[e.worker] = append(out[e.worker], p)
		}
	}
	for w := range out {
		sort.Strings(out[w])
	}
	return out
}

// measure fills the event's generations and real cost: every piece that
// stopped from its start on (an UNASSIGNED record, or a RUNNING elsewhere
// than before with nothing between: its worker crashed), for how long, and
// when the last of them ran again; of the configured pieces only (nil: all).
func measure(ev *LastEvent, es []entry, configured Configured) {
	ev.Generations, ev.Notes, ev.DefaultsAssumed = []int32{}, []string{}, []string{}
	if ev.Kind == EventCrash {
		ev.Notes = append(ev.Notes, "a crashed worker writes nothing: the event is dated from its last record, earlier than the crash, so the real task-seconds and times are upper bounds")
	}
	gens := map[int32]bool{}
	before, owner := map[string]string{}, map[string]string{}
	for w, ps := range ev.Before {
		for _, p := range ps {
			before[p], owner[p] = w, w
		}
	}
	down := map[string]int64{} // piece -> since when it is not running
	lastAt := map[string]int64{}
	task := map[string]bool{}
	stoppedC, stoppedT := map[string]bool{}, map[string]bool{}
	unconfigured := map[string]bool{} // written since the event, not configured to run now
	var latest int64
	for _, e := range es {
		if e.at < ev.StartMs {
			continue
		}
		if e.at < ev.noticedMs {
			// Between a crashed worker's last record and its pieces
			// running elsewhere: other changes, not the crash's.
			before[e.piece] = ""
			if e.state == "RUNNING" {
				before[e.piece] = e.worker
			}
			lastAt[e.piece] = e.at
			continue
		}
		if !gens[e.gen] {
			gens[e.gen] = true
			ev.Generations = append(ev.Generations, e.gen)
		}
		if configured != nil && !configured[e.piece] {
			unconfigured[e.piece] = true
			continue
		}
		task[e.piece] = e.task
		switch e.state {
		case "UNASSIGNED":
			if _, ok := down[e.piece]; !ok {
				down[e.piece] = e.at
			}
		case "RUNNING":
			since, wasDown := down[e.piece]
			if !wasDown && before[e.piece] != "" && before[e.piece] != e.worker {
				// Moved with no stop record (its worker crashed): dated
				// from its last record, as the rebalances' figures are.
				since, wasDown = max(ev.StartMs, lastAt[e.piece]), true
			}
			if wasDown {
				if e.task {
					stoppedT[e.piece] = true
					ev.Real.TaskMsNotRunning += e.at - since
				} else {
					stoppedC[e.piece] = true
				}
				latest = max(latest, e.at-ev.StartMs)
				delete(down, e.piece)
			}
			before[e.piece] = e.worker
		}
		if ev.Kind == EventStop && e.state == "RUNNING" && e.worker != ev.Worker && owner[e.piece] == ev.Worker && ev.ReturnedAfterMs == nil && ev.ElsewhereAfterMs == nil {
			after := e.at - ev.StartMs
			ev.ElsewhereAfterMs = &after
		}
		lastAt[e.piece] = e.at
		// A crash is dated from the worker's own last record: only what
		// it writes after that is a return.
		if ev.Kind != EventJoin && e.worker == ev.Worker && e.state == "RUNNING" && ev.ReturnedAfterMs == nil && (ev.Kind == EventStop || e.at > ev.StartMs) {
			back := e.at - ev.StartMs
			ev.ReturnedAfterMs = &back
		}
	}
	for p := range down {
		if task[p] {
			stoppedT[p] = true
		} else {
			stoppedC[p] = true
		}
	}
	ev.Real.ConnectorsStopped, ev.Real.TasksStopped = len(stoppedC), len(stoppedT)
	if len(unconfigured) > 0 {
		ev.Notes = append(ev.Notes, fmt.Sprintf("%d piece(s) written since the event are not configured to run now (a connector paused, stopped or deleted since, or a task removed) and are left out of the real cost: %s",
			len(unconfigured), format.List(slices.Sorted(maps.Keys(unconfigured)))))
	}
	if len(down) == 0 {
		ev.Real.AllRunningAfterMs = &latest
	} else {
		ev.Notes = append(ev.Notes, "some pieces that stopped have not run again since: when all run again is not known")
	}
	sort.Slice(ev.Generations, func(i, j int) bool { return ev.Generations[i] < ev.Generations[j] })
}

// table sets the event's real cost beside the plan's.
func (ev *LastEvent) table() format.Table {
	what := ev.Worker + " joined"
	if ev.Kind != EventJoin {
		what = ev.Worker + " stopped cleanly"
		if ev.Kind == EventCrash {
			what = ev.Worker + " crashed (dated from its last record)"
		}
		if ev.ReturnedAfterMs != nil {
			what += ", wrote again after " + format.Millis(*ev.ReturnedAfterMs)
		}
	}
	t := format.Table{Title: "Last event: " + what + " at " + timeText(ev.StartMs) + ", real cost and a plan's from the state before it",
		Header: []string{"FIGURE", "REAL", "PLAN", "PLAN - REAL"}, Footer: ev.Notes}
	if ev.Plan != "" {
		t.Footer = append([]string{"plan: " + ev.Plan}, t.Footer...)
	}
	p, d := ev.Predicted, ev.Difference
	dash := func(ok bool, s func() string) string {
		if !ok {
			return "-"
		}
		return s()
	}
	t.Rows = [][]string{
		{"connectors stopped", strconv.Itoa(ev.Real.ConnectorsStopped), dash(p != nil, func() string { return strconv.Itoa(p.ConnectorsStopped) }), dash(d != nil, func() string { return signed(int64(d.ConnectorsStopped)) })},
		{"tasks stopped", strconv.Itoa(ev.Real.TasksStopped), dash(p != nil, func() string { return strconv.Itoa(p.TasksStopped) }), dash(d != nil, func() string { return signed(int64(d.TasksStopped)) })},
		{"task-seconds not running", seconds(ev.Real.TaskMsNotRunning), dash(p != nil, func() string { return seconds(p.TaskMsNotRunning) }),
			dash(d != nil, func() string {
				s := seconds(d.TaskMsNotRunning)
				if d.TaskMsNotRunning > 0 {
					s = "+" + s
				}
				if d.TaskSecondsError != nil {
					s += fmt.Sprintf(" (%+.0f%%)", *d.TaskSecondsError*100)
				}
				return s
			})},
		{"all running again after", msText(ev.Real.AllRunningAfterMs), dash(p != nil, func() string { return msText(p.AllRunningAfterMs) }),
			dash(d != nil && d.AllRunningAfterMs != nil, func() string { return signedMs(*d.AllRunningAfterMs) })},
	}
	return t
}

func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) }

func signed(n int64) string {
	if n > 0 {
		return "+" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

func signedMs(ms int64) string {
	if ms < 0 {
		return "-" + format.Millis(-ms)
	}
	return "+" + format.Millis(ms)
}

func msText(ms *int64) string {
	if ms == nil {
		return "not yet"
	}
	return format.Millis(*ms)
}
