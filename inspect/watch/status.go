package watch

import (
	"fmt"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// ObserveStatus applies one new status-topic record.
func (w *Watcher) ObserveStatus(now int64, r inspect.Record) []Event {
	res := store.DecodeStatus([]inspect.Record{r}, store.DecodeOptions{})
	var out []Event
	emit := func(e Event) { e.TimeMs = now; out = append(out, e); w.events++ }
	if r.Value == nil {
		w.deleted(now, store.ParseStatusRecordKey(r.Key), emit)
		return out
	}
	for _, c := range res.Connectors {
		w.noteGen(c.Generation)
		prev, had := w.conns[c.Name]
		w.conns[c.Name] = c
		if had && prev.State == c.State && format.TextOr(prev.WorkerID, "") == format.TextOr(c.WorkerID, "") {
			continue
		}
		emit(stateChange(Event{Type: EventConnectorState, Connector: ptr(c.Name), State: ptr(c.State),
			WorkerID: c.WorkerID, Generation: ptr(c.Generation)}, "connector "+c.Name, had, prev.State, prev.WorkerID))
	}
	for _, t := range res.Tasks {
		w.noteGen(t.Generation)
		prev, had := w.tasks[t.ID]
		// Connect's reader ignores UNASSIGNED over a RUNNING of the same or a
		// later generation (connect-internals.md §7); so does the watch.
		if had && t.State == "UNASSIGNED" && prev.State == "RUNNING" && prev.Generation >= t.Generation {
			continue
		}
		w.setTask(now, t.ID, &t)
		if had && prev.State == t.State && format.TextOr(prev.WorkerID, "") == format.TextOr(t.WorkerID, "") {
			continue
		}
		emit(stateChange(Event{Type: EventTaskState, Connector: ptr(t.Connector), Task: ptr(t.ID), State: ptr(t.State),
			WorkerID: t.WorkerID, Generation: ptr(t.Generation)}, "task "+t.ID, had, prev.State, prev.WorkerID))
	}
	return out
}

// deleted applies a status tombstone under key, read as Kafka reads it: a
// connector's drops its status and its tasks', a task's the task's.
func (w *Watcher) deleted(now int64, key store.StatusKey[string], emit func(Event)) {
	switch {
	case key.Is(store.StatusKeyConnector):
		name := key.Connector
		if _, ok := w.conns[name]; ok {
			delete(w.conns, name)
			emit(Event{Type: EventConnectorState, Connector: ptr(name), Message: "connector " + name + ": status deleted"})
		}
		for id, t := range w.tasks {
			if t.Connector == name {
				w.setTask(now, id, nil)
			}
		}
	case key.Is(store.StatusKeyTask):
		id := key.TaskRef().String()
		if _, ok := w.tasks[id]; ok {
			w.setTask(now, id, nil)
			emit(Event{Type: EventTaskState, Task: ptr(id), Message: "task " + id + ": status deleted"})
		}
	}
}

// setTask records a task's new status (nil: deleted) and closes or opens
// its not-running interval.
func (w *Watcher) setTask(now int64, id string, t *store.TaskStatus) {
	if since, ok := w.heldDown[id]; ok && (t == nil || t.State != "RUNNING") {
		w.addDown(id, "HELD", now-since) // from here its status counts
		delete(w.heldDown, id)
	}
	prev, had := w.tasks[id]
	if had && prev.State != "RUNNING" {
		if since, ok := w.downFrom[id]; ok {
			w.addDown(id, prev.State, now-since)
			delete(w.downFrom, id)
		}
	}
	if t == nil {
		delete(w.tasks, id)
		return
	}
	w.tasks[id] = *t
	if t.State != "RUNNING" {
		w.downFrom[id] = now
	}
}

func (w *Watcher) addDown(id, state string, ms int64) {
	if ms <= 0 {
		return
	}
	if state == "PAUSED" { // paused on purpose: not an outage
		w.paused[id] += ms
		return
	}
	d := w.down[id]
	if d == nil {
		d = &TaskDowntime{Task: id, ByStateMs: map[string]int64{}}
		w.down[id] = d
	}
	d.NotRunningMs += ms
	d.ByStateMs[state] += ms
}

func stateMessage(what string, e Event, prevWorker *string) string {
	msg := what + ": "
	state := format.TextOr(e.State, "")
	switch {
	case e.PreviousState != nil && *e.PreviousState == state && e.WorkerID != nil:
		// Same state, another worker: the piece moved, its state did not change.
		msg += state + ", now on " + *e.WorkerID
		if prevWorker != nil {
			msg += " (was on " + *prevWorker + ")"
		}
	default:
		if e.PreviousState != nil {
			msg += *e.PreviousState + " → "
		}
		msg += state
		if e.WorkerID != nil {
			msg += " on " + *e.WorkerID
		}
	}
	if e.Generation != nil {
		msg += fmt.Sprintf(" (generation %d)", *e.Generation)
	}
	return msg
}

// stateChange is e, a connector's or task's new state, with its previous
// state and worker when it had one, and its message.
func stateChange(e Event, what string, had bool, prevState string, prevWorker *string) Event {
	if had {
		e.PreviousState = ptr(prevState)
	} else {
		prevWorker = nil
	}
	e.Message = stateMessage(what, e, prevWorker)
	return e
}
