package timeline

import (
	"fmt"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
)

// The events a timeline runs and what each does to the group.

// EventKind says what happens to the cluster.
type EventKind int

// Event kinds.
const (
	EventStop       EventKind = iota // the worker shuts down cleanly (LeaveGroup)
	EventCrash                       // the worker dies; noticed after the session timeout
	EventJoin                        // a worker joins holding nothing
	EventConnectors                  // the configured connectors become Connectors
	eventNotice                      // internal: the group notices a crash
	eventLeaveGroup                  // internal: a stopping worker's LeaveGroup (its work stopped)
)

// Event is one thing that happens in a what-if timeline. Its time is AfterMs
// after the moment the event that scheduled it took effect (t = 0 for the
// first events); Then lists events scheduled relative to this one, which is
// how a rolling restart chains "stop, come back, stop the next".
type Event struct {
	AfterMs    int64
	Kind       EventKind
	Worker     string                   // member id (stop, crash, join)
	Host       string                   // join: the machine this member runs on ("" = Worker)
	Replaces   string                   // join: the member id this one restarts (its departure must be noticed first)
	Connectors []assignor.ConnectorSpec // EventConnectors
	// WhenStable holds the event, once due, until the group is stable: no
	// round wanted or running, no follow-up, no scheduled rebalance and no
	// crash waiting to be noticed (a roll paced "after the group is stable").
	WhenStable bool
	Then       []Event
}

type queuedEvent struct {
	at  int64
	seq int
	ev  Event
}

// eventQueue is a min-heap by (time, order of scheduling): pushing used to
// re-sort the whole queue, which a long roll's thousands of events made slow.
type eventQueue []queuedEvent

func (q eventQueue) Len() int { return len(q) }

func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}

func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }

func (q *eventQueue) Push(x any) { *q = append(*q, x.(queuedEvent)) }

func (q *eventQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// apply makes one event happen at e.now.
func (e *engine) apply(ev Event) error {
	switch ev.Kind {
	case EventStop, EventCrash:
		m := e.members[ev.Worker]
		if m == nil || m.dead {
			return fmt.Errorf("worker %q is not a running member of the group", ev.Worker)
		}
		e.stopPieces(m, e.ownedOf(m))
		e.mark(map[EventKind]string{EventStop: MarkStop, EventCrash: MarkCrash}[ev.Kind], ev.Worker)
		m.dead = true
		if err := e.departs(ev.Kind, ev.Worker); err != nil {
			return err
		}
	case eventNotice, eventLeaveGroup:
		if ev.Kind == eventLeaveGroup && !e.leaving[ev.Worker] {
			return nil // it left when its restart came back (leftBeforeReturn)
		}
		delete(e.leaving, ev.Worker)
		e.notices--
		if ev.Kind == eventNotice {
			e.log(MarkNotice, ev.Worker, "the group notices that %s is gone (session timeout)", e.label(ev.Worker))
			e.mark(MarkNotice, ev.Worker)
		} else {
			e.log(MarkStop, ev.Worker, "%s sends LeaveGroup", e.label(ev.Worker))
		}
		if err := e.leave(ev.Worker); err != nil {
			return err
		}
	case EventJoin:
		if err := e.leftBeforeReturn(ev.Replaces); err != nil {
			return err
		}
		if ev.Replaces != "" && e.members[ev.Replaces] != nil {
			// The old incarnation is still in the group (crash not yet
			// noticed): the new member's join completes with that notice.
			e.push(e.noticeAt[ev.Replaces], ev)
			return nil
		}
		if e.members[ev.Worker] != nil {
			return fmt.Errorf("worker %q is already a member", ev.Worker)
		}
		if err := e.sim.Join(ev.Worker, assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}); err != nil {
			return fmt.Errorf("joining %s: %w", ev.Worker, err)
		}
		h := ev.Host
		if h == "" {
			h = ev.Worker
		}
		m := e.addMember(ev.Worker, h, nil)
		m.fresh = true
		e.fresh = append(e.fresh, m)
		if ev.Replaces != "" {
			e.log(MarkReturn, ev.Worker, "%s is back as new member %s, holding nothing", e.label(ev.Replaces), e.label(ev.Worker))
			e.mark(MarkReturn, ev.Worker)
		} else {
			e.log(MarkJoin, ev.Worker, "%s joins, holding nothing", e.label(ev.Worker))
			e.mark(MarkJoin, ev.Worker)
		}
		e.want(e.label(ev.Worker) + " joined")
	case EventConnectors:
		e.materializeAll()
		keys := cluster.ConfiguredKeys(ev.Connectors)
		if remap := e.ix.add(keys); remap != nil {
			e.renumber(remap)
		}
		next := make([]bool, e.ix.len())
		for _, k := range keys {
			next[e.ix.lookup(k)] = true
		}
		for _, m := range e.joined {
			n := 0
			for _, id := range m.owned {
				if !next[id] && e.acct.isRunning(id) {
					n -= e.taskCount(id) // a deleted piece stops running
				}
			}
			e.track(m, e.now, n)
		}
		e.sim.SetConnectors(ev.Connectors)
		e.acct.reconfigure(next, e.now)
		e.log(EventKindConnectors, "", "configured connectors change (%s)", describeSpecs(ev.Connectors))
		e.want("connectors changed")
		if e.model.HeartbeatIntervalMs > 0 && e.windowOpen < 0 {
			e.selfRejoin = true // every worker reads the config topic and rejoins at once (timemodel.go)
		}
	}
	for _, then := range ev.Then {
		e.push(e.now+then.AfterMs, then)
	}
	return nil
}

// leave removes a member from the group; when it was the leader, leadership
// moves and the new leader starts with no memory of earlier rounds.
func (e *engine) leave(w string) error {
	if err := e.sim.Leave(w); err != nil {
		return fmt.Errorf("%s leaving: %w", w, err)
	}
	if m := e.members[w]; m != nil {
		e.removeMember(m)
	}
	e.want(e.label(w) + " left")
	if w == e.leader {
		e.sim.NewLeader()
		e.leader = ""
		if len(e.joined) > 0 {
			e.leader = e.joined[0].id
		}
		e.log(MarkLeader, e.leader, "%s was the leader: %s leads now and has no memory of earlier rounds", e.label(w), e.leaderName())
		e.mark(MarkLeader, e.leader)
	}
	return nil
}
