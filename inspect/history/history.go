// Package history reconstructs the recent rebalances of a Connect cluster
// from what its status topic still shows: every status record carries the
// writing worker, the group generation it was in and its time, so the
// records of one generation are one rebalance's stops and starts. What
// compaction removed, or what a crashed worker never wrote, cannot be seen;
// the view says so rather than guess.
package history

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// Result is the `inspect rebalances` view.
type Result struct {
	Topic      string      `json:"topic"`
	Rebalances []Rebalance `json:"rebalances"`
	Restarts   []Restart   `json:"restarts"`
	Notes      []string    `json:"notes"`
	// LastEvent is the last stop or join the records show, with its cost
	// (and a plan's, when the command could plan); null when none shows.
	LastEvent *LastEvent `json:"last_event"`
}

// Rebalance is one generation as the status topic shows it.
type Rebalance struct {
	Generation int32    `json:"generation"`
	FirstMs    int64    `json:"first_ms"` // first status record of the generation (epoch ms)
	LastMs     int64    `json:"last_ms"`
	Workers    []string `json:"workers"` // workers that wrote in it
	Trigger    string   `json:"trigger"` // inferred from who stopped, who is new, who vanished
	Stopped    []string `json:"stopped"` // pieces written UNASSIGNED in it
	Started    []string `json:"started"` // pieces written RUNNING in it
	// TaskMsNotRunning is, for the tasks started in this generation, the
	// time since each stopped (its UNASSIGNED record, or its last RUNNING
	// on a worker that wrote nothing more: a crash, dated from its last
	// record, so a lower bound is not promised).
	TaskMsNotRunning int64 `json:"task_ms_not_running"`
	// LongestTaskOutageMs is the longest of those.
	LongestTaskOutageMs int64 `json:"longest_task_outage_ms"`
}

// Restart is a worker that stopped all its work (a clean shutdown writes
// UNASSIGNED for each piece) and wrote again at least two generations
// later: the gap is an upper bound on its restart time (it writes only
// once it runs work again).
type Restart struct {
	Worker    string `json:"worker"`
	StoppedMs int64  `json:"stopped_ms"`
	BackMs    int64  `json:"back_ms"`
	AwayMs    int64  `json:"away_ms"`
}

type status struct {
	State      string `json:"state"`
	WorkerID   string `json:"worker_id"`
	Generation int32  `json:"generation"`
}

type last struct {
	state, worker string
	atMs          int64
	gen           int32
}

// FromRecords reads the status topic's records, in time order whatever
// order they were read in (the topic has several partitions, read one
// after another).
func FromRecords(topic string, records []inspect.Record) Result {
	return FromRecordsConfigured(topic, records, nil)
}

// Configured is the set of pieces (connector names, task ids) the config
// topic has Connect run now; nil when it is not known.
type Configured map[string]bool

// ConfiguredFrom is what cfg has Connect run: each STARTED connector and
// the tasks of its latest commit; nil (not known) when no config record
// was read, as from a dump of the status topic alone.
func ConfiguredFrom(cfg *store.ConfigsResult) Configured {
	if cfg == nil || cfg.Records.Read == 0 {
		return nil
	}
	c := Configured{}
	for _, conn := range cfg.Connectors {
		if conn.TargetState != "STARTED" {
			continue
		}
		c[conn.Name] = true
		for _, t := range conn.Tasks {
			c[t.ID] = true
		}
	}
	return c
}

// FromRecordsConfigured is FromRecords whose last event counts only the
// pieces configured to run now: a connector paused, stopped or deleted
// since, or a task removed, stops on purpose and is no cost of the event.
func FromRecordsConfigured(topic string, records []inspect.Record, configured Configured) Result {
	res := Result{Topic: topic, Rebalances: []Rebalance{}, Restarts: []Restart{}, Notes: []string{}}
	byGen := map[int32]*Rebalance{}
	seen := map[int32]map[string]bool{} // generation -> workers
	prev := map[string]last{}           // piece -> its last record
	running := map[string]int{}         // worker -> pieces whose last record is RUNNING on it
	stopped := map[string]last{}        // worker -> when it stopped its last running piece
	firstGenOf := map[string]int32{}
	es, undated := entries(records)
	for _, e := range es {
		piece, task, at := e.piece, e.task, e.at
		s := status{State: e.state, WorkerID: e.worker, Generation: e.gen}
		rb := byGen[s.Generation]
		if rb == nil {
			rb = &Rebalance{Generation: s.Generation, FirstMs: at, Workers: []string{}, Stopped: []string{}, Started: []string{}}
			byGen[s.Generation] = rb
			seen[s.Generation] = map[string]bool{}
		}
		rb.FirstMs, rb.LastMs = min(rb.FirstMs, at), max(rb.LastMs, at)
		if !seen[s.Generation][s.WorkerID] {
			seen[s.Generation][s.WorkerID] = true
			rb.Workers = append(rb.Workers, s.WorkerID)
		}
		if _, ok := firstGenOf[s.WorkerID]; !ok {
			firstGenOf[s.WorkerID] = s.Generation
		}
		if st, ok := stopped[s.WorkerID]; ok && s.State != "UNASSIGNED" {
			// Back after at least one generation without it: a restart
			// (a worker whose work was all revoked and given back a round
			// later, as eager does every round, is not one).
			if s.Generation > st.gen+1 {
				res.Restarts = append(res.Restarts, Restart{Worker: s.WorkerID, StoppedMs: st.atMs, BackMs: at, AwayMs: at - st.atMs})
			}
			delete(stopped, s.WorkerID)
		}
		if p, ok := prev[piece]; ok && p.state == "RUNNING" {
			running[p.worker]--
		}
		switch s.State {
		case "UNASSIGNED":
			rb.Stopped = append(rb.Stopped, piece)
			if running[s.WorkerID] <= 0 {
				stopped[s.WorkerID] = last{atMs: at, gen: s.Generation}
			}
		case "RUNNING":
			running[s.WorkerID]++
			rb.Started = append(rb.Started, piece)
			if p, ok := prev[piece]; ok && task && (p.state == "UNASSIGNED" || p.worker != s.WorkerID) {
				gap := at - p.atMs
				if gap > 0 {
					rb.TaskMsNotRunning += gap
					rb.LongestTaskOutageMs = max(rb.LongestTaskOutageMs, gap)
				}
			}
		}
		prev[piece] = last{state: s.State, worker: s.WorkerID, atMs: at, gen: s.Generation}
	}
	gens := make([]int32, 0, len(byGen))
	for g := range byGen {
		gens = append(gens, g)
	}
	sort.Slice(gens, func(i, j int) bool { return gens[i] < gens[j] })
	for i, g := range gens {
		rb := byGen[g]
		sort.Strings(rb.Workers)
		rb.Trigger = trigger(rb, byGen, gens[:i], firstGenOf, configured)
		res.Rebalances = append(res.Rebalances, *rb)
	}
	if undated > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d status record(s) have no timestamp and are left out", undated))
	}
	res.LastEvent = lastEvent(es, configured)
	res.Notes = append(res.Notes, "a generation in which nothing was stopped or started (a round that only told a delay) writes nothing and is not listed; a crashed worker writes nothing, so its pieces' outages are dated from their last RUNNING record, which is earlier than the crash")
	return res
}

// trigger infers what started a generation from the records: workers that
// stopped cleanly in the previous generations, workers new in this one.
func trigger(rb *Rebalance, byGen map[int32]*Rebalance, earlier []int32, firstGenOf map[string]int32, configured Configured) string {
	var parts []string
	for _, w := range rb.Workers {
		if firstGenOf[w] == rb.Generation && len(earlier) > 0 {
			parts = append(parts, w+" joined")
		}
	}
	if len(earlier) > 0 {
		p := byGen[earlier[len(earlier)-1]]
		stoppedBy := map[string]bool{}
		for _, w := range p.Workers {
			stoppedBy[w] = true
		}
		for _, w := range p.Workers {
			present := false
			for _, x := range rb.Workers {
				present = present || x == w
			}
			if !present && len(p.Stopped) > 0 {
				parts = append(parts, w+" left or had nothing to do")
			}
		}
	}
	if len(parts) == 0 {
		if len(rb.Stopped) > 0 && len(rb.Started) == 0 {
			if configured != nil && !slices.ContainsFunc(rb.Stopped, func(p string) bool { return configured[p] }) {
				return "pieces stopped that are not configured to run now (a connector paused, stopped or deleted, or tasks removed)"
			}
			return "workers stopped (shutdown or revocation)"
		}
		return "not visible (a config change, a revocation follow-up or a delay running out)"
	}
	return strings.Join(parts, "; ")
}

// pieceOf names a status key's piece as Kafka reads the key (the store's
// parser): a connector by its name, a task by its id NAME-N (task true).
func pieceOf(raw []byte) (string, bool, bool) {
	key := store.ParseStatusRecordKey(raw)
	switch {
	case !key.OfPiece():
		return "", false, false
	case key.Kind == store.StatusKeyTask:
		return key.TaskRef().String(), true, true
	}
	return key.Connector, false, true
}

// Tables shows one row per rebalance and one per restart.
func (r Result) Tables() []format.Table {
	t := format.Table{Title: "Rebalances seen in " + r.Topic, Header: []string{"GENERATION", "FROM", "FOR", "TRIGGER", "STOPPED", "STARTED", "TASK-S NOT RUNNING", "LONGEST", "WORKERS"}, Wide: []int{8}, Wrap: []int{3}, Footer: r.Notes}
	for _, b := range r.Rebalances {
		t.Rows = append(t.Rows, []string{strconv.Itoa(int(b.Generation)), timeText(b.FirstMs), format.Millis(b.LastMs - b.FirstMs), b.Trigger,
			strconv.Itoa(len(b.Stopped)), strconv.Itoa(len(b.Started)), strconv.FormatFloat(float64(b.TaskMsNotRunning)/1000, 'f', 1, 64), format.Millis(b.LongestTaskOutageMs), strings.Join(b.Workers, ", ")})
	}
	out := []format.Table{t}
	if len(r.Restarts) > 0 {
		rt := format.Table{Title: "Workers that stopped cleanly and wrote again (restart time, at most)", Header: []string{"WORKER", "STOPPED", "BACK", "AWAY"}}
		for _, s := range r.Restarts {
			rt.Rows = append(rt.Rows, []string{s.Worker, timeText(s.StoppedMs), timeText(s.BackMs), format.Millis(s.AwayMs)})
		}
		out = append(out, rt)
	}
	if r.LastEvent != nil {
		out = append(out, r.LastEvent.table())
	}
	return out
}

// timeText shows epoch milliseconds as UTC time, to the millisecond.
func timeText(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }
