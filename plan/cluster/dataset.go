package cluster

import (
	"fmt"
	"net"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/assignor"
)

// StartingStateError is StateFromDataset's error when the dataset cannot
// give the workers and what they own (a synthetic cluster can).
type StartingStateError struct{ Msg string }

func (e *StartingStateError) Error() string { return e.Msg }

// StateFromDataset builds a plan's starting point from what was read: the
// configured connectors from the config topic (Kafka's own rules: an
// inconsistent connector has no tasks, a STOPPED one is configured with none)
// and the members with what they own from the group description, in the
// broker's member order.
func StateFromDataset(d *views.Dataset) (State, error) {
	if !d.Loaded() {
		return State{}, fmt.Errorf("no dataset was read: nothing to plan from")
	}
	st := State{Source: d.Source}
	configs := d.Configs()
	for _, c := range configs.Connectors {
		tasks := len(c.Tasks)
		if c.TargetState == "STOPPED" {
			tasks = 0
		}
		st.Connectors = append(st.Connectors, assignor.ConnectorSpec{Name: c.Name, Tasks: tasks})
		if !c.Consistent {
			st.Notes = append(st.Notes, fmt.Sprintf("connector %s is inconsistent (incomplete task commit): the assignor sees no tasks for it", c.Name))
		}
	}
	if p := configs.Records.Problems; p > 0 {
		st.Notes = append(st.Notes, fmt.Sprintf("%d config record(s) could not be decoded and were left out (see inspect configs)", p))
	}
	if d.Group == nil {
		return st, &StartingStateError{fmt.Sprintf("%s has no description of the Connect group, so the workers and what they own are unknown: take a snapshot that includes the group, or start from a synthetic cluster", sourceName(d.Dataset))}
	}
	members := d.Members()
	views := map[string]group.MemberView{}
	for _, m := range members.Members {
		views[m.MemberID] = m
	}
	st.Protocol = members.Protocol
	if members.Leader != nil {
		st.Leader = *members.Leader
	}
	if members.Note != nil {
		st.Notes = append(st.Notes, "group: "+*members.Note)
	}
	for _, gm := range d.Group.Members {
		v, ok := views[gm.MemberID]
		if !ok {
			continue // a repeated entry: the view kept the first, and its note says so
		}
		delete(views, gm.MemberID)
		w := WorkerState{ID: gm.MemberID, Aliases: memberAliases(v), Owned: assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}}
		if v.Owned == nil {
			st.Notes = append(st.Notes, fmt.Sprintf("what %s owns could not be decoded: it is taken as owning nothing", gm.MemberID))
		} else if v.Held != nil {
			// The worker's own order, so the simulated leader trims what
			// Kafka's would (assignor.md §6.3).
			w.Owned.Connectors = append(w.Owned.Connectors, v.Held.Connectors...)
			for _, t := range v.Held.Tasks {
				w.Owned.Tasks = append(w.Owned.Tasks, assignor.TaskID{Connector: t.Connector, Task: int(t.Task)})
			}
		} else {
			w.Owned.Connectors = append(w.Owned.Connectors, v.Owned.Connectors...)
			for _, t := range v.Owned.Tasks {
				id, err := assignor.ParseTaskID(t)
				if err != nil {
					st.Notes = append(st.Notes, fmt.Sprintf("%s owns an unreadable task id %q: left out", gm.MemberID, t))
					continue
				}
				w.Owned.Tasks = append(w.Owned.Tasks, id)
			}
		}
		st.Workers = append(st.Workers, w)
	}
	if len(st.Workers) == 0 {
		return st, &StartingStateError{fmt.Sprintf("the Connect group in %s has no members (state %q): nothing to plan from; start from a synthetic cluster", sourceName(d.Dataset), d.Group.State)}
	}
	if st.Leader != "" {
		found := false
		for _, w := range st.Workers {
			found = found || w.ID == st.Leader
		}
		if !found {
			st.Notes = append(st.Notes, fmt.Sprintf("the assignments name leader %s, which is not a member: the first member is taken as the leader", st.Leader))
			st.Leader = ""
		}
	}
	if st.Leader == "" {
		st.Notes = append(st.Notes, "the leader is unknown: the first member is taken as the leader")
	}
	st.Pending = pendingFromDataset(d, st, members)
	st.Phase, st.PhaseNotSeen = phaseFromDataset(d, st, members)
	return st, nil
}

// memberAliases are the other names an operator may use for a worker: its
// client id, its REST URL and host:port, and its client host.
func memberAliases(v group.MemberView) []string {
	out := []string{}
	add := func(s string) {
		if s == "" {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	// host:port first: plans name a worker by it, as status records and
	// watch do (preferredAlias takes the first host:port alias).
	if v.URL != nil && *v.URL != "" {
		add(group.WorkerID(v))
	}
	add(v.ClientID)
	if v.URL != nil {
		u := *v.URL
		add(u)
		add(strings.TrimSuffix(u, "/"))
		if u != "" {
			add(group.WorkerID(v)) // host:port, as checks name workers
		}
		if h, _, err := net.SplitHostPort(group.WorkerID(v)); err == nil {
			add(h) // the name the sandbox and most deployments give a worker
		}
	}
	if id, ok := strings.CutPrefix(v.ClientID, "connect-"); ok {
		add(id) // Connect's client id is connect-HOST:PORT
	}
	add(strings.TrimPrefix(v.ClientHost, "/"))
	return out
}

func sourceName(d *inspect.Dataset) string {
	if d.Source == "" {
		return "the input"
	}
	return strings.TrimPrefix(d.Source, "file:")
}
