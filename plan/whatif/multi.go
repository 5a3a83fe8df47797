package whatif

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// LeaveOptions describe workers leaving the group: together (PaceMs 0) or
// one after another, PaceMs apart, in the order given.
type LeaveOptions struct {
	Workers        []string // any name ResolveWorker accepts; each at most once
	Stop           Stop     // StopClean (the zero value) or StopCrash
	PaceMs         int64    // time between two departures (0 = all at once)
	ReturnsAfterMs *int64   // each comes back this long after its own departure (nil = the branch without returns only)
}

// LeaveWorkersPlan previews several workers leaving: at once (two crashes
// noticed in the same session timeout share a round) or paced. Like
// LeavePlan it shows the branch where they never return, and with
// ReturnsAfterMs the branch where each comes back as a new member.
func LeaveWorkersPlan(state cluster.State, opts timeline.Options, lo LeaveOptions) (*PlanResult, error) {
	ids, err := checkLeave(state, opts, lo)
	if err != nil {
		return nil, err
	}
	kind, err := StopKind(lo.Stop)
	if err != nil {
		return nil, err
	}
	how := map[timeline.EventKind]string{timeline.EventStop: "stop cleanly", timeline.EventCrash: "crash"}[kind]
	who := workerList(state, ids)
	if len(ids) == 1 {
		how = map[timeline.EventKind]string{timeline.EventStop: "stops cleanly", timeline.EventCrash: "crashes"}[kind]
	}
	when := ""
	if len(ids) > 1 {
		when = " at once"
		if lo.PaceMs > 0 {
			when = fmt.Sprintf(", %s apart", Millis(lo.PaceMs))
		}
	}
	res := NewResult("leave", state, opts, fmt.Sprintf("%s %s%s", who, how, when))
	stop := lo.Stop
	if stop == "" {
		stop = StopClean
	}
	res.Assumptions.Stop = &stop
	res.noteLeaveTiming(timeline.NewTimeModel(state, opts), kind, state.Label(ids[0]))
	if len(ids) > 1 {
		pace := lo.PaceMs
		res.Assumptions.PaceMs = &pace
	}
	departures := func(back bool) []timeline.Event {
		var evs []timeline.Event
		for i, w := range ids {
			ev := timeline.Event{AfterMs: int64(i) * lo.PaceMs, Kind: kind, Worker: w}
			if back {
				ev.Then = []timeline.Event{{AfterMs: opts.Restarts.For(w, *lo.ReturnsAfterMs), Kind: timeline.EventJoin, Worker: incarnation(w, state), Host: w, Replaces: w}}
			}
			evs = append(evs, ev)
		}
		return evs
	}
	if lo.ReturnsAfterMs != nil && opts.Restarts != nil {
		// Each comes back after its own measured restart time; the
		// assumptions give the longest.
		var longest int64
		for _, w := range ids {
			longest = max(longest, opts.Restarts.For(w, *lo.ReturnsAfterMs))
		}
		lo.ReturnsAfterMs = &longest
	}
	if lo.ReturnsAfterMs != nil {
		res.Assumptions.ReturnsAfterMs = lo.ReturnsAfterMs
		res.Assumptions.Settings = append(res.Assumptions.Settings, RestartSettings(state, opts.Restarts, *lo.ReturnsAfterMs, ids...)...)
		// The delay starts when the group notices the first departure.
		deadline := res.Assumptions.MaxDelayMs
		if kind == timeline.EventCrash {
			deadline += res.Assumptions.SessionTimeoutMs
		}
		within := "within the delay"
		if *lo.ReturnsAfterMs >= deadline {
			within = "after the delay"
		}
		backs := make([]string, len(ids))
		for i, w := range ids {
			backs[i] = state.Label(incarnation(w, state))
		}
		name := fmt.Sprintf("%s returns after %s as %s (%s)", who, Millis(*lo.ReturnsAfterMs), strings.Join(backs, ", "), within)
		if len(ids) > 1 {
			name = fmt.Sprintf("%s return after %s each as %s (%s)", who, Millis(*lo.ReturnsAfterMs), strings.Join(backs, ", "), within)
		}
		if err := res.addBranch(state, opts, name, departures(true)); err != nil {
			return nil, err
		}
	}
	never := who + " does not return"
	if len(ids) > 1 {
		never = who + " do not return"
	}
	if err := res.addBranch(state, opts, never, departures(false)); err != nil {
		return nil, err
	}
	return res, nil
}

// checkLeave resolves the leaving workers to member ids and checks the
// options against the bounds, before anything grows with the cluster.
func checkLeave(state cluster.State, opts timeline.Options, lo LeaveOptions) (ids []string, err error) {
	if len(lo.Workers) == 0 {
		return nil, field.Errorf("Worker", ": no worker given")
	}
	ids, err = resolveDistinct(state, "Worker", lo.Workers)
	if err != nil {
		return nil, err
	}
	if err := checkPlanBounds(state, opts, len(ids)); err != nil {
		return nil, err
	}
	if lo.PaceMs < 0 {
		return nil, field.Errorf("Pace", ": must not be negative")
	}
	if err := bounds.CheckDurationMs("--pace", lo.PaceMs); err != nil {
		return nil, err
	}
	if lo.ReturnsAfterMs != nil {
		if *lo.ReturnsAfterMs < 0 {
			return nil, field.Errorf("ReturnsAfter", ": must not be negative")
		}
		if err := bounds.CheckDurationMs("--returns-after", *lo.ReturnsAfterMs); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// resolveDistinct resolves worker names and refuses a worker named twice
// (a repeated flag must never silently become a different event).
func resolveDistinct(state cluster.State, fieldName string, names []string) ([]string, error) {
	seen := map[string]string{}
	var ids []string
	namer := state.Namer()
	for _, n := range names {
		w, err := namer.ResolveWorker(n)
		if err != nil {
			return nil, field.Errorf(fieldName, ": %w", err)
		}
		if first, ok := seen[w]; ok {
			if first == n {
				return nil, field.Errorf(fieldName, ": %s is given twice", n)
			}
			return nil, field.Errorf(fieldName, ": %q and %q name the same worker (%s)", first, n, namer.Label(w))
		}
		seen[w] = n
		ids = append(ids, w)
	}
	return ids, nil
}

// JoinOptions describe workers joining: at once (PaceMs 0) or one after
// another, PaceMs apart, in the order given.
type JoinOptions struct {
	Workers []string // member ids of the joiners (see Joiners)
	PaceMs  int64
}

// JoinWorkersPlan previews workers joining, at once or paced.
func JoinWorkersPlan(state cluster.State, opts timeline.Options, jo JoinOptions) (*PlanResult, error) {
	if jo.PaceMs < 0 {
		return nil, field.Errorf("Pace", ": must not be negative")
	}
	if err := bounds.CheckDurationMs("--pace", jo.PaceMs); err != nil {
		return nil, err
	}
	if jo.PaceMs == 0 || len(jo.Workers) < 2 {
		return JoinPlan(state, opts, jo.Workers)
	}
	if err := checkPlanBounds(state, opts, 1); err != nil {
		return nil, err
	}
	evs, err := joinEvents(state, jo.Workers, 1, jo.PaceMs)
	if err != nil {
		return nil, err
	}
	who := workerList(state, jo.Workers)
	res := NewResult("join", state, opts, fmt.Sprintf("%s join the group, %s apart", who, Millis(jo.PaceMs)))
	pace := jo.PaceMs
	res.Assumptions.PaceMs = &pace
	res.noteJoinerOrder(state, jo.Workers)
	return res, res.addBranch(state, opts, fmt.Sprintf("%s join, %s apart", who, Millis(jo.PaceMs)), evs)
}

// joinEvents has the joiners join step at a time, paceMs between steps.
func joinEvents(state cluster.State, names []string, step int, paceMs int64) ([]timeline.Event, error) {
	seen := map[string]bool{}
	for _, w := range state.Workers {
		seen[w.ID] = true
	}
	var evs []timeline.Event
	for i, n := range names {
		if n == "" || seen[n] {
			return nil, field.Errorf("NewWorkers", ": worker %q is already a member", n)
		}
		seen[n] = true
		evs = append(evs, timeline.Event{AfterMs: int64(i/step) * paceMs, Kind: timeline.EventJoin, Worker: n})
	}
	return evs, nil
}

// ScaleOptions describe an autoscaler's change of the worker count.
type ScaleOptions struct {
	To     int      // workers wanted
	Step   int      // workers added or removed at a time (0 = all at once)
	PaceMs int64    // time between two steps
	Stop   Stop     // how removed workers stop (StopClean by default)
	Add    []string // member ids of the joiners when scaling out (nil = invented, see NewWorkerNames); a scale-in refuses them
}

// ScalePlan previews a scale-out or scale-in to To workers, Step at a
// time, PaceMs apart, with the delay and the consecutive-revocation
// backoff in play. Scale-in removes the workers whose names sort last (as
// a StatefulSet removes its highest ordinals), never before the others.
func ScalePlan(state cluster.State, opts timeline.Options, so ScaleOptions) (*PlanResult, error) {
	n := len(state.Workers)
	switch {
	case so.To < 1:
		return nil, field.Errorf("To", ": must be at least 1 worker")
	case so.To == n:
		return nil, field.Errorf("To", ": the group already has %d workers", n)
	case so.Step < 0:
		return nil, field.Errorf("Step", ": must not be negative")
	case so.PaceMs < 0:
		return nil, field.Errorf("Pace", ": must not be negative")
	}
	if err := bounds.CheckDurationMs("--pace", so.PaceMs); err != nil {
		return nil, err
	}
	// The target is checked before anything is built for it: the state's
	// own bounds see only the workers there are now.
	if so.To > bounds.MaxWorkers {
		return nil, bounds.Errorf("--to %d: connectscope plans at most %d workers", so.To, bounds.MaxWorkers)
	}
	change := so.To - n
	if change > MaxJoiners {
		return nil, bounds.Errorf("--to %d adds %d workers: connectscope plans at most %d joiners, as plan join --add does", so.To, change, MaxJoiners)
	}
	if change < 0 {
		change = -change
	}
	step := so.Step
	if step == 0 || step > change {
		step = change
	}
	steps := (change + step - 1) / step
	pacing := "at once"
	if steps > 1 {
		pacing = fmt.Sprintf("%d at a time, %s apart", step, Millis(so.PaceMs))
	}
	if err := checkPlanBounds(state, opts, max(steps, 1)); err != nil {
		return nil, err
	}
	pace := so.PaceMs
	if so.To < n && len(so.Add) > 0 { // names for workers that will not exist: a mistaken direction
		return nil, field.Errorf("Add", ": a scale-in adds no worker (it names a scale-out's new workers)")
	}
	if so.To > n {
		names := so.Add
		if len(names) == 0 {
			names = NewWorkerNames(state, change)
		}
		if len(names) != change {
			return nil, field.Errorf("Add", ": %d names for %d new workers", len(names), change)
		}
		evs, err := joinEvents(state, names, step, so.PaceMs)
		if err != nil {
			return nil, err
		}
		desc := fmt.Sprintf("scale out from %d to %d workers, %s (%s)", n, so.To, pacing, workerList(state, names))
		res := NewResult("scale", state, opts, desc)
		res.Assumptions.PaceMs = &pace
		res.noteJoinerOrder(state, names)
		return res, res.addBranch(state, opts, desc, evs)
	}
	kind, err := StopKind(so.Stop)
	if err != nil {
		return nil, err
	}
	stop := so.Stop
	if stop == "" {
		stop = StopClean
	}
	removed := scaleInOrder(state)[:change]
	var evs []timeline.Event
	for i, w := range removed {
		evs = append(evs, timeline.Event{AfterMs: int64(i/step) * so.PaceMs, Kind: kind, Worker: w})
	}
	desc := fmt.Sprintf("scale in from %d to %d workers, %s (%s %s)", n, so.To, pacing, workerList(state, removed),
		map[timeline.EventKind]string{timeline.EventStop: "stop cleanly", timeline.EventCrash: "crash"}[kind])
	res := NewResult("scale", state, opts, desc)
	res.Assumptions.Stop = &stop
	res.Assumptions.PaceMs = &pace
	res.noteLeaveTiming(timeline.NewTimeModel(state, opts), kind, state.Label(removed[0]))
	return res, res.addBranch(state, opts, desc, evs)
}

// scaleInOrder lists the members in the order a scale-in removes them:
// names (labels) sorted with their numbers compared as numbers, last first.
func scaleInOrder(state cluster.State) []string {
	ids := make([]string, len(state.Workers))
	for i, w := range state.Workers {
		ids[i] = w.ID
	}
	namer := state.Namer()
	label := make(map[string]string, len(ids))
	for _, id := range ids {
		label[id] = namer.Label(id)
	}
	sort.SliceStable(ids, func(i, j int) bool { return format.NaturalLess(label[ids[j]], label[ids[i]]) })
	return ids
}

// MaxJoiners bounds the workers one --add number invents.
const MaxJoiners = 10000

// Joiners turns --add values into joiner member ids: a number N invents N
// names (NewWorkerNames), HOST:PORT names the worker as Connect will
// (JoinerID), anything else is taken as the member id.
func Joiners(state cluster.State, values []string) ([]string, error) {
	var out []string
	taken := map[string]bool{}
	for _, w := range state.Workers {
		taken[w.ID] = true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if n, err := strconv.Atoi(part); err == nil {
				if n < 1 || n > MaxJoiners {
					return nil, field.Errorf("Add", ": %d: want 1 to %d new workers, HOST:PORT or a member id", n, MaxJoiners)
				}
				probe := state
				for _, o := range out {
					probe.Workers = append(probe.Workers, cluster.WorkerState{ID: o})
				}
				out = append(out, NewWorkerNames(probe, n)...)
				continue
			}
			id := part
			if h, p, err := net.SplitHostPort(part); err == nil && h != "" {
				if _, perr := strconv.ParseUint(p, 10, 16); perr == nil {
					id = cluster.JoinerID(part)
				}
			}
			if taken[id] {
				return nil, field.Errorf("Add", ": %s is given twice or is already a member", part)
			}
			taken[id] = true
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, field.Errorf("Add", ": no worker to add")
	}
	return out, nil
}

// noteJoinerOrder says where the eager preview placed each joiner among the
// member ids, and which joiners it could only guess a place for.
func (r *PlanResult) noteJoinerOrder(state cluster.State, joiners []string) {
	ids := make([]string, 0, len(state.Workers)+len(joiners))
	for _, w := range state.Workers {
		ids = append(ids, w.ID)
	}
	ids = append(ids, joiners...)
	sort.Strings(ids)
	pos := map[string]int{}
	for i, id := range ids {
		pos[id] = i
	}
	var named, madeUp joinerNotes
	for _, j := range joiners {
		place := fmt.Sprintf("%d of %d", pos[j]+1, len(ids))
		if _, ok := cluster.JoinerLabel(j); ok {
			named.add(fmt.Sprintf("%s is placed %s", state.Label(j), place), fmt.Sprintf("eager: joiner %s is placed %s in the member-id order, as Connect's id connect-%s-<uuid> sorts (exact against other workers; its random UUID still decides HashMap tie-breaks)", state.Label(j), place, state.Label(j)))
			continue
		}
		madeUp.add(fmt.Sprintf("%s is a made-up member id placed %s", j, place), fmt.Sprintf("eager: joiner %s is a made-up member id placed %s in the member-id order; a real worker's id is connect-<host:port>-<uuid> and may sort elsewhere, which moves where eager deals (give --add HOST:PORT to place it as Connect will)", j, place))
	}
	r.Notes = append(r.Notes, named.notes("in the member-id order, each as Connect's id connect-HOST:PORT-<uuid> sorts (exact against other workers; their random UUIDs still decide HashMap tie-breaks)")...)
	r.Notes = append(r.Notes, madeUp.notes("in the member-id order; a real worker's id is connect-<host:port>-<uuid> and may sort elsewhere, which moves where eager deals (give --add HOST:PORT to place them as Connect will)")...)
}

// joinerNotesEach is how many joiners of one kind get a note each; a
// scale-out by more (hundreds, from an autoscaler) gets one note naming
// the first few, not a screen of notes.
const joinerNotesEach = 8

// joinerNotes collects one kind of joiner note: each joiner's whole note,
// and its part ("w7 is placed 3 of 9") for the one note beyond joinerNotesEach.
type joinerNotes struct{ parts, whole []string }

func (n *joinerNotes) add(part, whole string) {
	n.parts, n.whole = append(n.parts, part), append(n.whole, whole)
}

func (n *joinerNotes) notes(rest string) []string {
	if len(n.whole) <= joinerNotesEach {
		return n.whole
	}
	const shown = 3
	return []string{fmt.Sprintf("eager: %d joiners: %s, and %d more like them, %s", len(n.parts), strings.Join(n.parts[:shown], "; "), len(n.parts)-shown, rest)}
}
