package sandbox

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/plan/assignor"
)

// RoundRecord is what the leader computed in one rebalance.
type RoundRecord struct {
	Generation     int32
	Protocol       string // JoinGroup protocol selected: default, compatible, sessioned
	Leader         string // worker name
	LeaderMemberID string
	At             time.Time
	ConfigMismatch bool
	DelayMs        int64
	Members        []RoundMember // in the order handed to the assignor (join order)
}

// RoundMember is one member's part of a round.
type RoundMember struct {
	Worker   string
	MemberID string
	Reported assignor.Pieces // what its metadata said it holds, in held order
	Assigned assignor.Pieces
	Revoked  assignor.Pieces
}

// simProtocol maps a JoinGroup protocol name to plan's protocol setting
// (sessioned for a name that is not Connect's).
func simProtocol(joinProtocol string) string {
	return cmp.Or(protocol.Setting(joinProtocol), "sessioned")
}

type leaderMember struct {
	id   string
	seq  int
	meta *protocol.MemberMetadata
}

// confirmLeadership runs after SyncGroup. kfake, when the previous leader
// has left, tells every member of the new generation that it is the leader
// (it overwrites its leader while answering the joins one by one), so more
// than one worker may compute a round; only the assignments of the last one
// named reach the members. A worker whose round was not the one delivered
// takes back its assignor memory and forgets the round, as if it had been
// a follower.
func (w *worker) confirmLeadership(a *protocol.Assignment, before assignor.AssignorState) {
	rec := w.pendingRound
	w.pendingRound = nil
	if rec == nil {
		return
	}
	if a.Leader != w.memberID {
		w.assignor = before
		return
	}
	if rec.Protocol == protocol.ProtocolSessioned && !rec.ConfigMismatch {
		w.c.ensureSessionKey(w.ctx, w.cl)
	}
	w.c.recordRound(*rec)
}

// lead computes the assignments of one round with plan's assignor, keeping
// the assignor's memory in this worker between rounds (a worker that
// becomes leader starts from its own, possibly empty, memory).
func (w *worker) lead(gen int32, groupProtocol string, members []kmsg.JoinGroupResponseMember) ([]kmsg.SyncGroupRequestGroupAssignment, error) {
	version, err := protocol.ProtocolVersion(groupProtocol)
	if err != nil {
		return nil, err
	}
	ms := make([]leaderMember, 0, len(members))
	for _, m := range members {
		meta, err := protocol.DecodeMetadata(m.ProtocolMetadata)
		if err != nil {
			return nil, fmt.Errorf("member %s metadata: %w", m.MemberID, err)
		}
		ms = append(ms, leaderMember{id: m.MemberID, seq: w.c.memberSeq(m.MemberID), meta: meta})
	}
	// The broker's member order is not observable; like assignor.Sim and the
	// test vectors, the sandbox uses join order (§6.2 tie-break).
	slices.SortStableFunc(ms, func(a, b leaderMember) int { return cmp.Compare(a.seq, b.seq) })

	specs, leaderPos := w.c.assignorSnapshot()
	maxOffset := int64(-1)
	for _, m := range ms {
		maxOffset = max(maxOffset, m.meta.ConfigOffset)
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.id
	}
	w.c.noteRound(gen, ids)
	rec := RoundRecord{Generation: gen, Protocol: groupProtocol, Leader: w.name, LeaderMemberID: w.memberID, At: time.Now()}
	base := protocol.Assignment{Version: version, Leader: w.memberID, LeaderURL: w.url, ConfigOffset: maxOffset}

	var out []kmsg.SyncGroupRequestGroupAssignment
	if leaderPos < maxOffset {
		// Config mismatch (assignor.md §1): everyone gets error 1 and
		// nothing else; the assignor's memory does not change.
		rec.ConfigMismatch = true
		for _, m := range ms {
			a := base
			a.Error = protocol.AssignmentConfigMismatch
			if out, err = appendAssignment(out, m.id, &a); err != nil {
				return nil, err
			}
			rec.Members = append(rec.Members, RoundMember{Worker: w.c.WorkerOfMember(m.id), MemberID: m.id, Reported: reported(m.meta)})
		}
		w.pendingRound = &rec
		return out, nil
	}

	in := assignor.AssignInput{
		Connectors:              specs,
		NowMs:                   time.Now().UnixMilli(),
		Generation:              int(gen),
		LastCompletedGeneration: int(w.lastCompletedGen),
	}
	for _, m := range ms {
		in.Members = append(in.Members, assignor.MemberInput{ID: m.id, Owned: reported(m.meta)})
	}
	cfg := assignor.SimConfig{Protocol: simProtocol(groupProtocol), MaxDelayMs: w.c.cfg.ScheduledRebalanceMaxDelay.Milliseconds()}
	res, st, err := assignor.Assign(cfg, w.assignor, in)
	if err != nil {
		return nil, fmt.Errorf("assignor: %w", err)
	}
	w.assignor = st
	rec.DelayMs = res.DelayMs
	for i, ma := range res.Members {
		a := base
		a.Assigned = heldEntries(fromPieces(ma.Assigned))
		if version > 0 {
			a.Revoked = revokedEntries(fromPieces(ma.Revoked))
			a.DelayMs = int32(min(ma.DelayMs, 1<<31-1))
		}
		if out, err = appendAssignment(out, ma.ID, &a); err != nil {
			return nil, err
		}
		rec.Members = append(rec.Members, RoundMember{Worker: w.c.WorkerOfMember(ma.ID), MemberID: ma.ID,
			Reported: in.Members[i].Owned, Assigned: ma.Assigned, Revoked: ma.Revoked})
	}
	w.pendingRound = &rec
	return out, nil
}

func appendAssignment(out []kmsg.SyncGroupRequestGroupAssignment, memberID string, a *protocol.Assignment) ([]kmsg.SyncGroupRequestGroupAssignment, error) {
	b, err := protocol.EncodeAssignment(a)
	if err != nil {
		return nil, fmt.Errorf("encoding the assignment of %s: %w", memberID, err)
	}
	ga := kmsg.NewSyncGroupRequestGroupAssignment()
	ga.MemberID = memberID
	ga.MemberAssignment = b
	return append(out, ga), nil
}

// reported is what a member's metadata says it holds, in held (entry) order.
func reported(m *protocol.MemberMetadata) assignor.Pieces {
	if m.Allocation == nil {
		return assignor.Pieces{}
	}
	return holdingOfEntries(m.Allocation.Connectors(), m.Allocation.Tasks()).pieces()
}

// assignorSnapshot is the leader's config snapshot: connectors with their
// task counts (0 when STOPPED) and the config position it reflects.
func (c *Cluster) assignorSnapshot() ([]assignor.ConnectorSpec, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	specs := make([]assignor.ConnectorSpec, 0, len(c.connectors))
	for _, cs := range c.connectors {
		specs = append(specs, assignor.ConnectorSpec{Name: cs.name, Tasks: cs.tasks})
	}
	slices.SortFunc(specs, func(a, b assignor.ConnectorSpec) int { return strings.Compare(a.Name, b.Name) })
	return specs, c.configPos
}

// ensureSessionKey writes the session key once a sessioned round happens,
// as the leader of a sessioned group does (KIP-507).
func (c *Cluster) ensureSessionKey(ctx context.Context, cl *kgo.Client) {
	c.mu.Lock()
	if c.sessionKey {
		c.mu.Unlock()
		return
	}
	c.sessionKey = true
	c.mu.Unlock()
	v, err := sessionKeyValue(time.Now().UnixMilli())
	if err != nil {
		c.log.printf("session key: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := cl.ProduceSync(ctx, &kgo.Record{Topic: c.cfg.Topics.Config, Key: []byte("session-key"), Value: v}).First()
	if err != nil {
		c.log.printf("writing the session key: %v", err)
		return
	}
	c.mu.Lock()
	c.configPos = max(c.configPos, r.Offset+1)
	c.mu.Unlock()
}

// registerMember notes when a member id first appeared (join order) and
// which worker it belongs to.
func (c *Cluster) registerMember(memberID, worker string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.memberSeqs[memberID]; !ok {
		c.seq++
		c.memberSeqs[memberID] = c.seq
		c.memberNames[memberID] = worker
	}
}

// WorkerOfMember names the worker a member id belongs (or belonged) to.
func (c *Cluster) WorkerOfMember(memberID string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.memberNames[memberID]
}

func (c *Cluster) memberSeq(memberID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.memberSeqs[memberID]; ok {
		return s
	}
	return int(^uint(0) >> 1)
}

func (c *Cluster) recordRound(r RoundRecord) {
	c.mu.Lock()
	c.rounds = append(c.rounds, r)
	c.mu.Unlock()
	c.log.printf("%s", r.Line())
}

// Rounds returns every round the leaders computed, oldest first.
func (c *Cluster) Rounds() []RoundRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.rounds)
}

// Line is the one-line summary printed for a rebalance.
func (r RoundRecord) Line() string {
	var b strings.Builder
	names := make([]string, len(r.Members))
	for i, m := range r.Members {
		names[i] = m.Worker
		if names[i] == "" {
			names[i] = m.MemberID
		}
	}
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	fmt.Fprintf(&b, "rebalance: generation %d (%s), leader %s, %d members [%s]", r.Generation, r.Protocol, r.Leader,
		len(r.Members), strings.Join(sorted, " "))
	if r.ConfigMismatch {
		b.WriteString(": CONFIG_MISMATCH, everyone rejoins")
		return b.String()
	}
	var moves []string
	for i, m := range r.Members {
		var parts []string
		if r.Protocol == protocol.ProtocolEager {
			// Eager assignments are complete: everything stopped and
			// each worker starts all of this.
			for _, c := range m.Assigned.Connectors {
				parts = append(parts, "="+c)
			}
			for _, t := range m.Assigned.Tasks {
				parts = append(parts, "="+t.String())
			}
		} else {
			for _, c := range m.Assigned.Connectors {
				parts = append(parts, "+"+c)
			}
			for _, t := range m.Assigned.Tasks {
				parts = append(parts, "+"+t.String())
			}
			for _, c := range m.Revoked.Connectors {
				parts = append(parts, "-"+c)
			}
			for _, t := range m.Revoked.Tasks {
				parts = append(parts, "-"+t.String())
			}
		}
		if len(parts) > 0 {
			moves = append(moves, names[i]+" "+strings.Join(parts, " "))
		}
	}
	slices.Sort(moves)
	switch {
	case len(moves) == 0 && r.Protocol == protocol.ProtocolEager:
		b.WriteString(": nothing to run")
	case len(moves) == 0:
		b.WriteString(": nothing moved")
	case r.Protocol == protocol.ProtocolEager:
		b.WriteString(": everything restarted: " + strings.Join(moves, "; "))
	default:
		b.WriteString(": " + strings.Join(moves, "; "))
	}
	if r.DelayMs > 0 {
		fmt.Fprintf(&b, "; scheduled rebalance in %dms", r.DelayMs)
	}
	return b.String()
}
