package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/plan/assignor"
)

type msgKind int

const (
	msgRejoin msgKind = iota // config changed: rejoin the group
	msgTarget                // a connector's target state changed
	msgFail                  // a task must fail
)

type workerMsg struct {
	kind      msgKind
	connector string
	task      taskID
}

const (
	modeRunning int32 = iota
	modeStopping
	modeKilled
)

// worker is one simulated Connect worker: a goroutine with its own client
// that takes part in the Connect group like DistributedHerder +
// WorkerCoordinator do. Everything below "goroutine-owned" is touched only
// by run().
type worker struct {
	c        *Cluster
	name     string
	id       string // advertised host:port, the status records' worker_id
	url      string // advertised REST URL in the metadata
	protocol string // connect.protocol: eager, compatible, sessioned
	cl       *kgo.Client
	ctx      context.Context
	cancel   context.CancelFunc
	mode     atomic.Int32
	done     chan struct{}
	stopErr  error

	inboxMu  sync.Mutex
	inbox    []workerMsg
	inflight atomic.Int32 // messages sent and not yet fully handled
	wake     chan struct{}

	// goroutine-owned
	memberID         string
	generation       int32
	groupProtocol    string // protocol the group selected in the last join
	held             holding
	hasAllocation    bool
	last             *protocol.Assignment // last assignment received (re-embedded in metadata)
	needJoin         bool
	rejoinAt         time.Time
	lastCompletedGen int32
	revokedInGen     int32 // the generation whose assignment revoked work, until the rejoin after it; -1 = none
	assignor         assignor.AssignorState
	pendingRound     *RoundRecord // round computed as leader, until SyncGroup says whose was delivered
	running          map[string]*piece

	snapMu      sync.Mutex
	snap        WorkerState
	consumers   map[string]int  // sink consumers per connector
	activeSinks map[string]bool // connectors with a committing consumer here
}

// WorkerState is what a worker currently believes, for tests and status.
type WorkerState struct {
	Name          string
	ID            string // worker id (host:port)
	Protocol      string // connect.protocol
	MemberID      string
	Generation    int32 // generation of the last completed join
	GroupProtocol string
	Leader        string // leader member id of the last assignment
	Owned         assignor.Pieces
	Joining       bool // a join is in progress or requested
	RejoinPending bool // a scheduled rebalance (delay) is pending
}

func newWorker(c *Cluster, name, protocol string) (*worker, error) {
	id := name + ":8083"
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(c.addr),
		kgo.ClientID("connect-"+id),
		kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)),
	)
	if err != nil {
		return nil, fmt.Errorf("creating client for worker %s: %w", name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &worker{
		c: c, name: name, id: id, url: "http://" + id + "/", protocol: protocol,
		cl: cl, ctx: ctx, cancel: cancel, done: make(chan struct{}), wake: make(chan struct{}, 1),
		generation: -1, lastCompletedGen: -1, revokedInGen: -1, needJoin: true,
		assignor: assignor.NewAssignorState(), running: map[string]*piece{},
	}
	w.publish(true)
	return w, nil
}

// send queues a message for the worker goroutine.
func (w *worker) send(m workerMsg) {
	w.inflight.Add(1)
	w.inboxMu.Lock()
	w.inbox = append(w.inbox, m)
	w.inboxMu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *worker) takeInbox() []workerMsg {
	w.inboxMu.Lock()
	defer w.inboxMu.Unlock()
	msgs := w.inbox
	w.inbox = nil
	return msgs
}

// pendingInbox says whether a message is queued or still being handled.
func (w *worker) pendingInbox() bool { return w.inflight.Load() > 0 }

// stop asks for a clean shutdown and waits for it.
func (w *worker) stop(ctx context.Context) error {
	w.mode.CompareAndSwap(modeRunning, modeStopping)
	w.cancel()
	select {
	case <-w.done:
		return w.stopErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// kill crashes the worker and waits until its goroutine is gone.
func (w *worker) kill() {
	w.mode.Store(modeKilled)
	w.cancel()
	<-w.done
}

func (w *worker) snapshot() WorkerState {
	w.snapMu.Lock()
	defer w.snapMu.Unlock()
	return w.snap
}

func (w *worker) publish(joining bool) {
	leader := ""
	if w.last != nil {
		leader = w.last.Leader
	}
	s := WorkerState{
		Name: w.name, ID: w.id, Protocol: w.protocol, MemberID: w.memberID,
		Generation: w.generation, GroupProtocol: w.groupProtocol, Leader: leader,
		Owned: w.held.sorted().pieces(), Joining: joining || w.needJoin,
		RejoinPending: !w.rejoinAt.IsZero(),
	}
	consumers, active := map[string]int{}, map[string]bool{}
	for _, p := range w.running {
		if p.sink != nil {
			consumers[p.connector]++
			if p.state == StateRunning {
				active[p.connector] = true
			}
		}
	}
	w.snapMu.Lock()
	w.snap = s
	w.consumers, w.activeSinks = consumers, active
	w.snapMu.Unlock()
}

// run is the worker's life: join, sync, heartbeat, rejoin when told to or
// when a scheduled delay ends, until stopped or killed.
func (w *worker) run() {
	defer close(w.done)
	hb := time.NewTicker(w.c.cfg.HeartbeatInterval)
	defer hb.Stop()
	for w.ctx.Err() == nil {
		w.handleInbox()
		if w.needJoin {
			w.publish(true)
			if w.revokedInGen >= 0 {
				// Kafka's order: the generation's assignments all go out
				// before the follow-up round starts (syncgate.go).
				w.awaitPeers(w.revokedInGen)
				w.revokedInGen = -1
			}
			if err := w.joinAndSync(); err != nil && w.ctx.Err() == nil {
				w.c.log.printf("worker %s: %v; retrying", w.name, err)
				w.sleep(w.c.cfg.HeartbeatInterval)
			}
			w.publish(false)
			continue
		}
		w.waitForWork(hb.C)
	}
	w.shutdown()
}

// awaitPeers waits until every member of generation gen has its SyncGroup
// answer, heartbeating meanwhile as Connect's heartbeat thread does while
// the herder stops revoked work or starts a connector whose task configs
// it writes (taskwrites.go), for at most a session timeout: a member
// silent that long is as good as gone. (Without the heartbeats the wait
// had to end at half the session timeout, which a member slowed by a
// loaded machine outlasted: the join took four rounds in a CI run.)
func (w *worker) awaitPeers(gen int32) {
	deadline := time.Now().Add(w.c.cfg.SessionTimeout)
	for w.ctx.Err() == nil && w.memberID != "" {
		left := time.Until(deadline)
		if left <= 0 {
			w.c.log.printf("worker %s: a member of generation %d had no assignment after %v; going on", w.name, gen, w.c.cfg.SessionTimeout)
			return
		}
		if w.c.waitPeersSynced(w.ctx, gen, min(left, w.c.cfg.HeartbeatInterval)) {
			return
		}
		w.timed("heartbeat", w.heartbeat)
	}
}

// waitForWork blocks until a message, a heartbeat tick or the scheduled
// rebalance, and handles the tick or the deadline.
func (w *worker) waitForWork(tick <-chan time.Time) {
	var deadline <-chan time.Time
	if !w.rejoinAt.IsZero() {
		t := time.NewTimer(time.Until(w.rejoinAt))
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-w.ctx.Done():
	case <-w.wake:
	case <-tick:
		w.timed("heartbeat", w.heartbeat)
	case <-deadline:
		w.rejoinAt = time.Time{}
		w.needJoin = true
	}
}

func (w *worker) sleep(d time.Duration) {
	select {
	case <-w.ctx.Done():
	case <-time.After(d):
	}
}

func (w *worker) handleInbox() {
	msgs := w.takeInbox()
	defer w.inflight.Add(-int32(len(msgs)))
	for _, m := range msgs {
		switch m.kind {
		case msgRejoin:
			w.needJoin = true
		case msgTarget:
			w.timed("applying a target state", func() { w.applyTargetState(m.connector) })
		case msgFail:
			w.timed("failing a task", func() { w.failTask(m.task) })
		}
	}
	w.publish(false)
}

// shutdown ends the worker: a clean stop writes UNASSIGNED for everything it
// ran and sends LeaveGroup; a kill sends nothing.
func (w *worker) shutdown() {
	defer w.cl.Close()
	defer w.c.noteGone(w.memberID)
	if w.mode.Load() == modeKilled {
		w.dropAll()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w.stopPieces(ctx, w.held, false)
	w.held = holding{}
	if w.memberID == "" {
		return
	}
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = w.c.cfg.GroupID
	req.MemberID = w.memberID
	m := kmsg.NewLeaveGroupRequestMember()
	m.MemberID = w.memberID
	reason := "the worker is shutting down"
	m.Reason = &reason
	req.Members = append(req.Members, m)
	resp, err := req.RequestWith(ctx, w.cl)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err != nil && !errors.Is(err, kerr.UnknownMemberID) {
		w.stopErr = fmt.Errorf("LeaveGroup: %w", err)
	}
}

func (w *worker) requestCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(w.ctx, w.c.cfg.SessionTimeout+w.c.cfg.RebalanceTimeout)
}

func (w *worker) heartbeat() {
	if w.memberID == "" {
		w.needJoin = true
		return
	}
	ctx, cancel := context.WithTimeout(w.ctx, w.c.cfg.SessionTimeout)
	defer cancel()
	req := kmsg.NewPtrHeartbeatRequest()
	req.Group = w.c.cfg.GroupID
	req.Generation = w.generation
	req.MemberID = w.memberID
	resp, err := req.RequestWith(ctx, w.cl)
	if err != nil {
		return // retried at the next tick; the session timeout decides
	}
	switch err := kerr.ErrorForCode(resp.ErrorCode); {
	case err == nil:
	case errors.Is(err, kerr.RebalanceInProgress), errors.Is(err, kerr.IllegalGeneration):
		w.needJoin = true
	case errors.Is(err, kerr.UnknownMemberID), errors.Is(err, kerr.FencedInstanceID):
		w.memberID = ""
		w.needJoin = true
	default:
		w.needJoin = true
	}
}

// allocation is the assignment the worker embeds in V1/V2 metadata: what it
// holds now in its assigned lists, everything else as last received.
func (w *worker) allocation() *protocol.Assignment {
	a := &protocol.Assignment{Assigned: heldEntries(w.held)}
	if w.last != nil {
		a.Error, a.Leader, a.LeaderURL = w.last.Error, w.last.Leader, w.last.LeaderURL
		a.ConfigOffset, a.Revoked, a.DelayMs = w.last.ConfigOffset, w.last.Revoked, w.last.DelayMs
	}
	return a
}

// apply takes an assignment as WorkerCoordinator.onJoinComplete and the
// herder do.
func (w *worker) apply(gen int32, groupProtocol string, a *protocol.Assignment) {
	w.generation = gen
	w.lastCompletedGen = gen
	w.needJoin = false
	if a.Error != protocol.AssignmentNoError {
		// The leader was behind on the config topic: keep what we run,
		// catch up and rejoin.
		w.last = a
		w.needJoin = true
		return
	}
	assigned := holdingOfEntries(a.Connectors(), a.Tasks())
	revoked := holdingOfEntries(a.RevokedConnectors(), a.RevokedTasks())
	if groupProtocol == protocol.ProtocolEager {
		// A worker that joined under a cooperative groupProtocol kept its pieces;
		// when the group switches to eager in this round, what the eager
		// assignment does not give back must stop now, or it would run on
		// untracked (a sink consumer left in its group for ever).
		w.timed("stopping pieces the eager round moved", func() { w.stopPieces(w.ctx, w.held.minus(assigned), true) })
		w.held = assigned
		w.startPieces(gen, assigned)
	} else {
		w.timed("stopping revoked pieces", func() { w.stopPieces(w.ctx, holdingIntersect(w.held, revoked), true) })
		kept := w.held.minus(revoked)
		w.held = assigned.then(kept)
		w.timed("starting assigned pieces", func() { w.startPieces(gen, assigned.minus(kept)) })
	}
	w.hasAllocation = true
	w.last = a
	if !revoked.empty() {
		w.needJoin = true
		w.revokedInGen = gen
	}
	if a.DelayMs > 0 {
		w.rejoinAt = time.Now().Add(time.Duration(a.DelayMs) * time.Millisecond)
	} else {
		w.rejoinAt = time.Time{}
	}
}

// timed runs fn and logs when it held up the worker's loop (and so its
// heartbeats) for a noticeable part of the session timeout.
func (w *worker) timed(what string, fn func()) {
	start := time.Now()
	fn()
	if d := time.Since(start); d > w.c.cfg.SessionTimeout/3 {
		w.c.log.printf("worker %s: %s took %v (session timeout %v)", w.name, what, d.Round(time.Millisecond), w.c.cfg.SessionTimeout)
	}
}

func holdingIntersect(h, r holding) holding {
	return h.minus(h.minus(r))
}
