package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/connectscope/connectscope/inspect/protocol"
)

// eagerNow says whether the worker behaves eagerly at the next join: the
// group last selected "default", or it has not joined yet and only offers it.
func (w *worker) eagerNow() bool {
	if w.groupProtocol != "" {
		return w.groupProtocol == protocol.ProtocolEager
	}
	return w.protocol == "eager"
}

// joinAndSync runs one JoinGroup + SyncGroup exchange and applies the
// assignment.
func (w *worker) joinAndSync() error {
	if w.eagerNow() {
		// Eager: stop everything before rejoining (onJoinPrepare). It is a
		// revocation: a piece deleted meanwhile loses its status.
		w.timed("stopping everything (eager)", func() { w.stopPieces(w.ctx, w.held, true) })
		w.held = holding{}
		w.hasAllocation = false
	}
	join, err := w.joinRequest()
	if err != nil {
		return err
	}
	defer w.keepAliveDuringJoin()()
	jresp, err := w.join(join)
	if err != nil {
		return err
	}
	groupProtocol := ""
	if jresp.Protocol != nil {
		groupProtocol = *jresp.Protocol
	}
	w.groupProtocol = groupProtocol
	var assignments []kmsg.SyncGroupRequestGroupAssignment
	before := w.assignor
	w.pendingRound = nil
	if jresp.LeaderID == w.memberID {
		assignments, err = w.lead(jresp.Generation, groupProtocol, jresp.Members)
		if err != nil {
			return fmt.Errorf("leader assignment for generation %d: %w", jresp.Generation, err)
		}
	}
	a, ok, err := w.sync(jresp.Generation, groupProtocol, assignments)
	if err != nil || !ok {
		return err
	}
	w.confirmLeadership(a, before)
	w.apply(jresp.Generation, groupProtocol, a)
	return nil
}

// joinRequest is the worker's JoinGroup request: its protocols with their
// metadata, and what it owns when it has an allocation.
func (w *worker) joinRequest() (*kmsg.JoinGroupRequest, error) {
	var owned *protocol.Assignment
	if w.hasAllocation {
		owned = w.allocation()
	}
	protocols, err := protocol.JoinProtocols(w.protocol, w.url, w.c.configPosition(), owned)
	if err != nil {
		return nil, fmt.Errorf("building JoinGroup protocols: %w", err)
	}
	join := kmsg.NewPtrJoinGroupRequest()
	join.Group = w.c.cfg.GroupID
	join.SessionTimeoutMillis = int32(w.c.cfg.SessionTimeout.Milliseconds())
	join.RebalanceTimeoutMillis = int32(w.c.cfg.RebalanceTimeout.Milliseconds())
	join.ProtocolType = "connect"
	for _, p := range protocols {
		jp := kmsg.NewJoinGroupRequestProtocol()
		jp.Name = p.Name
		jp.Metadata = p.Metadata
		join.Protocols = append(join.Protocols, jp)
	}
	return join, nil
}

// join sends JoinGroup until the coordinator takes it: again with the
// member id it hands out, or with none when it forgot the member's.
func (w *worker) join(join *kmsg.JoinGroupRequest) (*kmsg.JoinGroupResponse, error) {
	for {
		join.MemberID = w.memberID
		ctx, cancel := w.requestCtx()
		resp, err := join.RequestWith(ctx, w.cl)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("JoinGroup: %w", err)
		}
		err = kerr.ErrorForCode(resp.ErrorCode)
		if errors.Is(err, kerr.MemberIDRequired) {
			w.memberID = resp.MemberID
			w.c.registerMember(w.memberID, w.name)
			w.publish(true)
			continue
		}
		if errors.Is(err, kerr.UnknownMemberID) {
			w.memberID = ""
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("JoinGroup: %w", err)
		}
		return resp, nil
	}
}

// sync sends SyncGroup for generation (with the leader's assignments) and
// returns the worker's assignment; ok is false when a new round started
// meanwhile (needJoin stays set: the worker joins it).
func (w *worker) sync(generation int32, groupProtocol string, assignments []kmsg.SyncGroupRequestGroupAssignment) (a *protocol.Assignment, ok bool, err error) {
	sync := kmsg.NewPtrSyncGroupRequest()
	sync.Group = w.c.cfg.GroupID
	sync.Generation = generation
	sync.MemberID = w.memberID
	sync.ProtocolType = kmsg.StringPtr("connect")
	sync.Protocol = kmsg.StringPtr(groupProtocol)
	sync.GroupAssignment = assignments
	if d := w.c.syncDelay(w.name); d > 0 {
		w.sleep(d)
	}
	ctx, cancel := w.requestCtx()
	sresp, err := sync.RequestWith(ctx, w.cl)
	cancel()
	w.c.noteSynced(generation, w.memberID)
	if err != nil {
		return nil, false, fmt.Errorf("SyncGroup: %w", err)
	}
	if err := kerr.ErrorForCode(sresp.ErrorCode); err != nil {
		if errors.Is(err, kerr.UnknownMemberID) {
			w.memberID = ""
		}
		if errors.Is(err, kerr.RebalanceInProgress) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("SyncGroup: %w", err)
	}
	a, err = protocol.DecodeAssignment(sresp.MemberAssignment)
	if err != nil {
		return nil, false, fmt.Errorf("decoding the assignment for generation %d: %w", generation, err)
	}
	return a, true, nil
}

// keepAliveDuringJoin heartbeats while a JoinGroup/SyncGroup is pending and
// returns the function that stops it. Kafka's coordinator never expires a
// member that waits in JoinGroup; kfake's session timer keeps running then,
// so without this a member could be dropped while a slow peer rejoins.
func (w *worker) keepAliveDuringJoin() func() {
	if w.memberID == "" || w.generation < 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(w.ctx)
	done := make(chan struct{})
	memberID, gen := w.memberID, w.generation
	go func() {
		defer close(done)
		tick := time.NewTicker(w.c.cfg.HeartbeatInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				req := kmsg.NewPtrHeartbeatRequest()
				req.Group, req.Generation, req.MemberID = w.c.cfg.GroupID, gen, memberID
				rctx, rcancel := context.WithTimeout(ctx, w.c.cfg.SessionTimeout)
				_, _ = req.RequestWith(rctx, w.cl) // only keeps the session; errors are the join's business
				rcancel()
			}
		}
	}()
	return func() { cancel(); <-done }
}
