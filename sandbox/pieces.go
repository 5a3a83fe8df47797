package sandbox

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Status states (status topic, connect-internals.md §7).
const (
	StateRunning    = "RUNNING"
	StatePaused     = "PAUSED"
	StateFailed     = "FAILED"
	StateStopped    = "STOPPED"
	StateUnassigned = "UNASSIGNED"
)

// piece is a connector instance or a task running on a worker.
type piece struct {
	connector string
	task      *taskID // nil for the connector instance
	state     string  // status last written
	sink      *sinkTask
}

func connectorPieceKey(name string) string { return "c:" + name }
func taskPieceKey(t taskID) string         { return "t:" + t.String() }

// desiredState is the status a piece should report now, from the config
// topic's view; "" when the piece no longer exists (deleted connector, task
// beyond the task count).
func (w *worker) desiredState(connector string, task *taskID) string {
	cs := w.c.connectorCopy(connector)
	if cs == nil {
		return ""
	}
	if task == nil {
		switch cs.target {
		case TargetPaused:
			return StatePaused
		case TargetStopped:
			return StateStopped
		}
		return StateRunning
	}
	if task.Task >= cs.tasks {
		return ""
	}
	switch {
	case cs.failed[task.Task]:
		return StateFailed
	case cs.target == TargetPaused:
		return StatePaused
	}
	return StateRunning
}

// statusBatch collects status-topic records so one round's statuses go out
// in one produce.
type statusBatch struct {
	w    *worker
	gen  int32
	recs []*kgo.Record
}

func (b *statusBatch) status(key, state, trace string) {
	b.recs = append(b.recs, &kgo.Record{Topic: b.w.c.cfg.Topics.Status, Key: []byte(key),
		Value: statusValue(state, trace, b.w.id, b.gen)})
}

func (b *statusBatch) tombstone(key string) {
	b.recs = append(b.recs, &kgo.Record{Topic: b.w.c.cfg.Topics.Status, Key: []byte(key)})
}

func (b *statusBatch) add(r *kgo.Record) { b.recs = append(b.recs, r) }

func (b *statusBatch) flush(ctx context.Context) {
	if len(b.recs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := b.w.cl.ProduceSync(ctx, b.recs...).FirstErr(); err != nil && ctx.Err() == nil {
		b.w.c.log.printf("worker %s: writing statuses: %v", b.w.name, err)
	}
	b.recs = nil
}

// startPieces starts newly assigned pieces and reports their status with
// the generation of the assignment.
func (w *worker) startPieces(gen int32, h holding) {
	b := &statusBatch{w: w, gen: gen}
	var started []string
	defer func() {
		for _, name := range started {
			w.writePendingTasks(name) // taskwrites.go
		}
	}()
	for _, name := range h.Connectors {
		key := connectorPieceKey(name)
		if w.running[key] != nil {
			continue
		}
		p := &piece{connector: name}
		p.state = w.desiredState(name, nil)
		if p.state == "" {
			p.state = StateUnassigned // deleted meanwhile; the next round revokes it
		}
		w.running[key] = p
		b.status(connectorStatusKey(name), p.state, "")
		started = append(started, name)
	}
	for _, t := range h.Tasks {
		key := taskPieceKey(t)
		if w.running[key] != nil {
			continue
		}
		tt := t
		p := &piece{connector: t.Connector, task: &tt}
		w.running[key] = p
		w.setTaskState(b, p, w.desiredState(t.Connector, &tt))
	}
	b.flush(w.ctx)
}

// setTaskState moves a running task to state, doing what the task runtime
// does: sinks consume while RUNNING or PAUSED, a source commits an offset
// when it starts running.
func (w *worker) setTaskState(b *statusBatch, p *piece, state string) {
	if state == "" {
		state = StateUnassigned
	}
	t := *p.task
	cs := w.c.connectorCopy(t.Connector)
	if state == p.state {
		return
	}
	prev := p.state
	p.state = state
	trace := ""
	if state == StateFailed {
		trace = failureTrace(t)
	}
	b.status(taskStatusKey(t), state, trace)
	if cs == nil {
		return
	}
	switch {
	case cs.kind == KindSink && (state == StateRunning || state == StatePaused):
		if p.sink == nil {
			p.sink = w.c.startSinkTask(cs.name, t.Task, cs.topic, state == StateRunning)
			if w.c.markTopicActive(cs.topic, cs.name) {
				b.add(&kgo.Record{Topic: w.c.cfg.Topics.Status, Key: []byte(topicStatusKey(cs.topic, cs.name)),
					Value: topicStatusValue(cs.topic, cs.name, t.Task, time.Now().UnixMilli())})
			}
		}
		p.sink.setActive(state == StateRunning)
	case cs.kind == KindSink:
		p.stopSink()
	case state == StateRunning && prev != StatePaused:
		pos := w.c.nextSourcePosition(t)
		b.add(&kgo.Record{Topic: w.c.cfg.Topics.Offset, Key: sourceOffsetKey(t.Connector, t.Task), Value: sourceOffsetValue(pos)})
	}
}

func (p *piece) stopSink() {
	if p.sink != nil {
		p.sink.stop()
		p.sink = nil
	}
}

// takeRunning removes the piece of key from what this worker runs and
// returns it; nil when the worker does not run it.
func (w *worker) takeRunning(key string) *piece {
	p := w.running[key]
	delete(w.running, key)
	return p
}

// stopPieces stops the pieces of h this worker runs. A revoked piece that no
// longer exists gets its status removed (tombstone), as Connect deletes the
// status of a deleted connector or task; otherwise it reports UNASSIGNED.
func (w *worker) stopPieces(ctx context.Context, h holding, revocation bool) {
	b := &statusBatch{w: w, gen: w.generation}
	var stopping []*piece
	for _, name := range h.Connectors {
		if w.takeRunning(connectorPieceKey(name)) == nil {
			continue
		}
		if revocation && w.desiredState(name, nil) == "" {
			b.tombstone(connectorStatusKey(name))
			for _, topic := range w.c.takeActiveTopics(name) {
				b.tombstone(topicStatusKey(topic, name))
			}
			continue
		}
		b.status(connectorStatusKey(name), StateUnassigned, "")
	}
	for _, t := range h.Tasks {
		p := w.takeRunning(taskPieceKey(t))
		if p == nil {
			continue
		}
		stopping = append(stopping, p)
		w.c.clearFailed(t)
		tt := t
		if revocation && w.desiredState(t.Connector, &tt) == "" {
			b.tombstone(taskStatusKey(t))
			continue
		}
		b.status(taskStatusKey(t), StateUnassigned, "")
	}
	stopSinks(stopping)
	b.flush(ctx)
}

// stopSinks stops sink consumers in parallel, as the worker stops tasks.
func stopSinks(ps []*piece) {
	done := make(chan struct{}, len(ps))
	for _, p := range ps {
		go func() { p.stopSink(); done <- struct{}{} }()
	}
	for range ps {
		<-done
	}
}

// dropAll forgets every piece without writing anything (a crash): sink
// consumers vanish without leaving their groups.
func (w *worker) dropAll() {
	var sinks []*sinkTask
	for _, p := range w.running {
		if p.sink != nil {
			sinks = append(sinks, p.sink)
			p.sink = nil
		}
		if p.task != nil {
			w.c.clearFailed(*p.task) // a task starts afresh elsewhere
		}
	}
	w.running = map[string]*piece{}
	done := make(chan struct{}, len(sinks))
	for _, s := range sinks {
		go func() { s.crash(); done <- struct{}{} }()
	}
	for range sinks {
		<-done
	}
}

// applyTargetState reports the new state of a connector's running pieces.
func (w *worker) applyTargetState(connector string) {
	b := &statusBatch{w: w, gen: w.generation}
	if p := w.running[connectorPieceKey(connector)]; p != nil {
		if s := w.desiredState(connector, nil); s != "" && s != p.state {
			p.state = s
			b.status(connectorStatusKey(connector), s, "")
		}
	}
	for _, t := range w.held.Tasks {
		if t.Connector != connector {
			continue
		}
		if p := w.running[taskPieceKey(t)]; p != nil {
			tt := t
			if s := w.desiredState(connector, &tt); s != "" {
				w.setTaskState(b, p, s)
			}
		}
	}
	b.flush(w.ctx)
}

// failTask makes a running task report FAILED with a stack trace.
func (w *worker) failTask(t taskID) {
	p := w.running[taskPieceKey(t)]
	if p == nil {
		return
	}
	b := &statusBatch{w: w, gen: w.generation}
	w.setTaskState(b, p, StateFailed)
	b.flush(w.ctx)
}

// markTopicActive records that a sink connector consumes topic; it returns
// true the first time (when Connect writes the status-topic record).
func (c *Cluster) markTopicActive(topic, connector string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := connector + "\x00" + topic
	if c.topicStatus[k] {
		return false
	}
	c.topicStatus[k] = true
	return true
}

// takeActiveTopics forgets and returns a connector's active topics.
func (c *Cluster) takeActiveTopics(connector string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.topicStatus {
		for i := 0; i < len(k); i++ {
			if k[i] == 0 && k[:i] == connector {
				out = append(out, k[i+1:])
				delete(c.topicStatus, k)
			}
		}
	}
	return out
}

func (c *Cluster) clearFailed(t taskID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs, ok := c.connectors[t.Connector]; ok {
		delete(cs.failed, t.Task)
	}
}

// nextSourcePosition is the source offset a task commits when it starts: it
// moves on every start, like a file source reading further.
func (c *Cluster) nextSourcePosition(t taskID) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sourcePos[t] += 1000
	return c.sourcePos[t]
}
