// Package whatif holds the what-if plans: a worker joins or leaves, a
// connector changes, a rolling restart, scaling in or out, several workers
// at once; each runs its branches under both protocol families on the
// timeline engine, with gates, the final state and its tables.
package whatif

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Stop says how a worker goes away; the zero value is StopClean.
type Stop string

// The stop modes.
const (
	StopClean Stop = "clean" // graceful shutdown: LeaveGroup, the round starts at once
	StopCrash Stop = "crash" // noticed after session.timeout.ms
)

// ParseStop reads a stop mode as the flags spell it: clean or crash.
func ParseStop(s string) (Stop, error) {
	if _, err := StopKind(Stop(s)); err != nil || s == "" {
		return "", field.Errorf("Stop", ": must be %s or %s, got %q", StopClean, StopCrash, s)
	}
	return Stop(s), nil
}

// JoinPlan previews workers joining the group. names are the new member ids.
func JoinPlan(state cluster.State, opts timeline.Options, names []string) (*PlanResult, error) {
	if len(names) == 0 {
		return nil, field.Errorf("NewWorkers", ": no worker to add")
	}
	if err := checkPlanBounds(state, opts, 1); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, w := range state.Workers {
		seen[w.ID] = true
	}
	events := []timeline.Event{}
	for _, n := range names {
		if n == "" || seen[n] {
			return nil, field.Errorf("NewWorkers", ": worker %q is already a member", n)
		}
		seen[n] = true
		events = append(events, timeline.Event{Kind: timeline.EventJoin, Worker: n})
	}
	who := workerList(state, names)
	res := NewResult("join", state, opts, fmt.Sprintf("%s join%s the group", who, plural1(len(names))))
	res.noteJoinerOrder(state, names)
	return res, res.addBranch(state, opts, fmt.Sprintf("%s join%s", who, plural1(len(names))), events)
}

// NewWorkerNames invents n member ids for joining workers: the next numbers
// when the members are named PREFIX<number> (w7, w8 after w1..w6), otherwise
// new-1, new-2, ...
func NewWorkerNames(state cluster.State, n int) []string {
	taken := map[string]bool{}
	prefix, highest, numbered := "", 0, len(state.Workers) > 0
	for _, w := range state.Workers {
		taken[w.ID] = true
		i := len(w.ID)
		for i > 0 && w.ID[i-1] >= '0' && w.ID[i-1] <= '9' {
			i--
		}
		num, err := strconv.Atoi(w.ID[i:])
		if i == 0 || i == len(w.ID) || err != nil || (prefix != "" && prefix != w.ID[:i]) {
			numbered = false
			continue
		}
		prefix = w.ID[:i]
		if num > highest {
			highest = num
		}
	}
	out := []string{}
	next, base := highest+1, prefix
	if !numbered {
		next, base = 1, "new-"
	}
	for len(out) < n {
		name := base + strconv.Itoa(next)
		next++
		if !taken[name] {
			taken[name] = true
			out = append(out, name)
		}
	}
	return out
}

// LeavePlan previews a worker leaving: the work it held is lost and (under
// the cooperative protocols) held idle for the scheduled delay. With
// returnsAfterMs it also shows the branch where the worker comes back after
// that long as a new member holding nothing; the branch where it never comes
// back is always shown.
func LeavePlan(state cluster.State, opts timeline.Options, worker string, stop Stop, returnsAfterMs *int64) (*PlanResult, error) {
	return LeaveWorkersPlan(state, opts, LeaveOptions{Workers: []string{worker}, Stop: stop, ReturnsAfterMs: returnsAfterMs})
}

// ConnectorChange is one edit of the configured connectors.
type ConnectorChange struct {
	Set    map[string]int // existing connector -> new task count
	Add    map[string]int // new connector -> task count
	Remove []string       // connectors to delete
}

// ErrNothingToChange is ConnectorPlan's answer to a change that sets, adds
// and removes nothing.
var ErrNothingToChange = errors.New("nothing to change: no connector is set, added or removed")

// ConnectorPlan previews changes of the configured connectors (task counts,
// new and removed connectors), applied at once in one config change.
func ConnectorPlan(state cluster.State, opts timeline.Options, ch ConnectorChange) (*PlanResult, error) {
	next := map[string]int{}
	for _, c := range state.Connectors {
		next[c.Name] = c.Tasks
	}
	var what []string
	for _, name := range slices.Sorted(maps.Keys(ch.Set)) {
		if _, ok := next[name]; !ok {
			return nil, field.Errorf("Set", " %s: %w", name, &cluster.NotFoundError{Msg: "no such connector (add it to create one)"})
		}
		if ch.Set[name] < 0 {
			return nil, field.Errorf("Set", " %s: task count must not be negative", name)
		}
		what = append(what, fmt.Sprintf("%s: %d -> %s", name, next[name], format.Count(ch.Set[name], "task", "tasks")))
		next[name] = ch.Set[name]
	}
	removed := map[string]bool{}
	for _, name := range ch.Remove {
		switch _, set := ch.Set[name]; {
		case removed[name]:
			return nil, field.Errorf("Remove", " %s: given twice", name)
		case set:
			return nil, field.Errorf("Remove", " %s: its tasks are set too: a connector is changed or removed, not both", name)
		}
		removed[name] = true
		if _, ok := next[name]; !ok {
			return nil, field.Errorf("Remove", " %s: %w", name, &cluster.NotFoundError{Msg: "no such connector"})
		}
		delete(next, name)
		what = append(what, name+" removed")
	}
	for _, name := range slices.Sorted(maps.Keys(ch.Add)) {
		if _, ok := next[name]; ok {
			return nil, field.Errorf("Add", " %s: connector already exists (set its tasks to change them)", name)
		}
		if ch.Add[name] < 0 {
			return nil, field.Errorf("Add", " %s: task count must not be negative", name)
		}
		next[name] = ch.Add[name]
		what = append(what, fmt.Sprintf("%s added with %s", name, format.Count(ch.Add[name], "task", "tasks")))
	}
	if len(what) == 0 {
		return nil, ErrNothingToChange
	}
	specs := []assignor.ConnectorSpec{}
	for _, name := range slices.Sorted(maps.Keys(next)) {
		specs = append(specs, assignor.ConnectorSpec{Name: name, Tasks: next[name]})
	}
	after := state
	after.Connectors = specs
	for _, st := range []cluster.State{state, after} {
		if err := checkPlanBounds(st, opts, 1); err != nil {
			return nil, err
		}
	}
	desc := strings.Join(what, "; ")
	res := NewResult("connector", state, opts, desc)
	return res, res.addBranch(state, opts, desc, connectorEvents(state, specs, ch, res))
}

// StopKind is the timeline event of a stop mode.
func StopKind(stop Stop) (timeline.EventKind, error) {
	switch stop {
	case StopClean, "":
		return timeline.EventStop, nil
	case StopCrash:
		return timeline.EventCrash, nil
	}
	return 0, field.Errorf("Stop", ": must be %s or %s, got %q", StopClean, StopCrash, stop)
}

// incarnation names a restarted worker's new member id: the one the state
// knows it rejoined as (Incarnations), else w1 -> w1.2.
func incarnation(w string, state cluster.State) string {
	return incarnationAmong(state, w, memberIDs(state))
}

// memberIDs is the set of the state's member ids.
func memberIDs(state cluster.State) map[string]bool {
	taken := make(map[string]bool, len(state.Workers))
	for _, m := range state.Workers {
		taken[m.ID] = true
	}
	return taken
}

// incarnationAmong is incarnation with the member ids already collected
// (a roll names every worker's incarnation: collecting them each time was
// quadratic in the workers).
func incarnationAmong(state cluster.State, w string, taken map[string]bool) string {
	if id, ok := state.Incarnations[w]; ok {
		return id
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s.%d", w, i)
		if !taken[n] {
			return n
		}
	}
}

func NewResult(plan string, state cluster.State, opts timeline.Options, event string) *PlanResult {
	group, _ := timeline.EffectiveProtocol(state, opts)
	model := timeline.NewTimeModel(state, opts)
	jdk := opts.JDK
	if jdk == 0 {
		jdk = 17
	}
	version := "3.9"
	if opts.KafkaVersion.Known {
		version = opts.KafkaVersion.String()
	}
	notes := append([]string{}, state.Notes...)
	res := &PlanResult{
		Head: Head{
			Plan: plan, Source: state.Source, Event: event, Protocol: group,
			Assumptions: Assumptions{
				RoundTimeMs: model.RoundTimeMs, SessionTimeoutMs: model.SessionTimeoutMs, MaxDelayMs: opts.MaxDelayMs,
				KafkaVersion: version, JDK: jdk, Leader: state.LeaderID(), LeaderName: state.Name(state.LeaderID()), Model: model.Statements(),
				CrashNoticedAfterMs: model.CrashNoticeMs(), JoinWindowMs: model.JoinWindowMs(),
				Pending: state.Pending.From(opts.ZeroAtMs).View(opts.MaxDelayMs),
			},
			Initial: timeline.NameCounts(state, initialCounts(state)),
			Labels:  map[string]string{},
		},
		Branches: []Branch{},
		Notes:    notes,
	}
	res.Assumptions.Settings = settingSources(state, opts, res.Assumptions)
	return res
}

func (r *PlanResult) addBranch(state cluster.State, opts timeline.Options, name string, events []timeline.Event) error {
	_, coop := timeline.EffectiveProtocol(state, opts)
	// The two protocols run on their own simulators: side by side, on two
	// cores when there are.
	var e *timeline.Timeline
	var eerr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		e, eerr = timeline.Run(state, opts, "eager", events)
	}()
	c, err := timeline.Run(state, opts, coop, events)
	<-done
	if err != nil {
		return fmt.Errorf("%s (%s): %w", name, coop, err)
	}
	if eerr != nil {
		return fmt.Errorf("%s (eager): %w", name, eerr)
	}
	namer := state.Namer() // the state's workers indexed once for both timelines and the labels
	c.NameWorkers(namer)
	e.NameWorkers(namer)
	r.Branches = append(r.Branches, Branch{Name: name, Cooperative: c, Eager: e})
	for _, w := range state.Workers {
		r.Labels[w.ID] = namer.Label(w.ID)
	}
	for _, tl := range []*timeline.Timeline{c, e} {
		r.labelMembers(namer, tl, opts.Detail != timeline.DetailFull)
	}
	return nil
}

// labelMembers labels every member the rounds of tl list, and with
// fewerRows (rounds that list only some workers, or none) the members of
// the final counts and the events too. Each member is labelled once:
// every round lists every member.
func (r *PlanResult) labelMembers(namer *cluster.Namer, tl *timeline.Timeline, fewerRows bool) {
	label := func(m string) {
		if _, ok := r.Labels[m]; !ok {
			r.Labels[m] = namer.Label(m)
		}
	}
	for _, rd := range tl.Rounds {
		for _, w := range rd.Workers {
			label(w.Worker)
		}
	}
	if !fewerRows {
		return
	}
	for _, w := range tl.Summary.Final {
		label(w.Worker)
	}
	for _, ev := range tl.Events {
		if ev.Worker != nil {
			label(*ev.Worker)
		}
	}
}

func initialCounts(state cluster.State) []timeline.WorkerCount {
	out := []timeline.WorkerCount{}
	for _, w := range state.Workers {
		wc := timeline.WorkerCount{Worker: w.ID, Host: w.ID, Connectors: len(w.Owned.Connectors), Tasks: len(w.Owned.Tasks)}
		wc.OwnedConnectors, wc.OwnedTasks = cluster.PieceNames(cluster.KeysOf(w.Owned))
		out = append(out, wc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Worker < out[j].Worker })
	return out
}

func plural1(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// Millis renders a duration in ms as every table does (format.Millis).
func Millis(ms int64) string { return format.Millis(ms) }
