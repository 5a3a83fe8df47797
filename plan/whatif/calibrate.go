package whatif

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// PredictLast plans the history's last event from the state just before it
// (who ran what, from the status topic; the connectors configured now, from
// the config topic) and fills in the plan's cost beside the real one: a
// stop is `plan leave --stop clean` (returning when the worker wrote again),
// a crash `plan leave --stop crash`,
// a join `plan join`. Members join in the order of their names (the real
// join order is not in the records), and the leader is the group's leader
// now when it ran work before, else the first of them that is not the
// worker the event is about.
func PredictLast(d *views.Dataset, ev *history.LastEvent, opts timeline.Options) error {
	if ev == nil {
		return nil
	}
	state, err := cluster.StateFromDataset(d)
	var se *cluster.StartingStateError
	if err != nil && !errors.As(err, &se) {
		return err // no group is fine: the members come from the records
	}
	// The leader now, when it ran work before, is taken for the leader
	// then (the records do not say who led).
	leaderNow := ""
	if state.Leader != "" {
		leaderNow = state.Name(state.Leader)
	}
	state.Workers, state.Leader, state.Pending = nil, "", nil
	state.Connectors = writtenBefore(ev, state.Connectors)
	workers := make([]string, 0, len(ev.Before))
	for w := range ev.Before {
		workers = append(workers, w)
	}
	sort.Strings(workers)
	gone := 0
	for _, w := range workers {
		owned := assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}
		for _, p := range ev.Before[w] {
			switch t, err := assignor.ParseTaskID(p); {
			case configured(state, p):
				owned.Connectors = append(owned.Connectors, p)
			case err == nil && configured(state, t.Connector):
				owned.Tasks = append(owned.Tasks, t)
			default:
				gone++ // deleted since: the plan cannot place it
			}
		}
		state.Workers = append(state.Workers, cluster.WorkerState{ID: w, Owned: owned})
	}
	switch {
	case hasWorker(state, leaderNow):
		state.Leader = leaderNow
	case len(state.Workers) > 0:
		// Not the stopping worker: a leader that leaves is a different
		// event (its successor has no memory), which the group would show.
		for _, w := range state.Workers {
			if w.ID != ev.Worker {
				state.Leader = w.ID
				break
			}
		}
		ev.Notes = append(ev.Notes, "the leader before the event is not known (the group does not name one that ran work then): the plan takes "+state.Leader)
	}
	if gone > 0 {
		ev.Notes = append(ev.Notes, fmt.Sprintf("%d piece(s) that ran before the event are no longer configured: the plan leaves them out", gone))
	}
	var res *PlanResult
	branch := 0
	switch ev.Kind {
	case history.EventStop, history.EventCrash:
		if len(state.Workers) == 0 || !hasWorker(state, ev.Worker) {
			ev.Notes = append(ev.Notes, "no plan: the worker that stopped ran nothing the records show just before")
			return nil
		}
		stop := StopClean
		if ev.Kind == history.EventCrash {
			stop = StopCrash
		}
		res, err = LeavePlan(state, opts, ev.Worker, stop, ev.ReturnedAfterMs)
		ev.Plan = "plan leave --worker " + ev.Worker + " --stop " + string(stop)
		if ev.ReturnedAfterMs != nil {
			ev.Plan += " --returns-after " + Millis(*ev.ReturnedAfterMs)
			ev.Notes = append(ev.Notes, "the plan brings the worker back when it wrote again, at most its restart time (it writes only once it runs work)")
		} else {
			branch = len(res.Branches) - 1
		}
	case history.EventJoin:
		res, err = JoinPlan(state, opts, []string{ev.Worker})
		ev.Plan = "plan join --add " + ev.Worker
	default:
		return fmt.Errorf("last event of kind %q: no plan for it", ev.Kind)
	}
	if err != nil {
		ev.Notes = append(ev.Notes, "no plan: "+err.Error())
		return nil
	}
	b := res.Branches[branch]
	tl := b.Cooperative
	if res.Protocol == "eager" {
		tl = b.Eager
	}
	s := tl.Summary
	ev.Predicted = &history.Cost{ConnectorsStopped: s.ConnectorsStopped, TasksStopped: s.TasksStopped, TaskMsNotRunning: s.TaskMsNotRunning, AllRunningAfterMs: s.AllRunningAfterMs}
	ev.Difference = history.Delta(*ev.Predicted, ev.Real)
	if d := timeline.DefaultsAssumed(res.Assumptions.Settings); len(d) > 0 {
		ev.DefaultsAssumed = d
		ev.Notes = append(ev.Notes, "the plan assumes Kafka's defaults "+strings.Join(ev.DefaultsAssumed, ", ")+": no flag, worker file or history gives them, and the cluster may run others")
	}
	ev.Notes = append(ev.Notes, fmt.Sprintf("the plan ran with %s, round time %s, max delay %s, session timeout %s (-o json: last_event.plan)",
		res.Protocol, Millis(res.Assumptions.RoundTimeMs), Millis(res.Assumptions.MaxDelayMs), Millis(res.Assumptions.SessionTimeoutMs)))
	return nil
}

// configured says whether a connector of that name is configured.
func configured(state cluster.State, name string) bool {
	for _, c := range state.Connectors {
		if c.Name == name {
			return true
		}
	}
	return false
}

func hasWorker(state cluster.State, w string) bool {
	for _, x := range state.Workers {
		if x.ID == w {
			return true
		}
	}
	return false
}

// writtenBefore leaves out the connectors the status topic first shows
// after the event, with a note: they were not there to move, and planned
// they would count as work waiting for a first round.
func writtenBefore(ev *history.LastEvent, conns []assignor.ConnectorSpec) []assignor.ConnectorSpec {
	var since []string
	conns = slices.DeleteFunc(conns, func(c assignor.ConnectorSpec) bool {
		if ev.WrittenBefore(c.Name) {
			return false
		}
		for t := 0; t < c.Tasks; t++ {
			if ev.WrittenBefore(assignor.TaskID{Connector: c.Name, Task: t}.String()) {
				return false
			}
		}
		since = append(since, c.Name)
		return true
	})
	if len(since) > 0 {
		ev.Notes = append(ev.Notes, fmt.Sprintf("%d connector(s) the status topic first shows after the event (created since, or their earlier records compacted) are left out of the plan: %s", len(since), format.List(since)))
	}
	return conns
}
