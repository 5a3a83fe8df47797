package assignor

import (
	"fmt"
	"slices"
)

// AssignorState is the leader's memory between rounds (assignor.md §2).
// NewAssignorState() is a fresh leader's; keep the returned state for the
// next round while leadership stays.
type AssignorState struct {
	PreviousAssignment           Pieces // sorted
	PreviousRevocation           Pieces // sorted
	PreviousGenerationID         int
	PreviousMembers              []string
	ScheduledRebalanceMs         int64 // absolute leader clock; 0 = none
	DelayMs                      int64
	Candidates                   []string // ordered
	RevokedInPrevious            bool     // 3.4+
	SuccessiveRevokingRebalances int      // 3.4+
	CanRevoke                    bool     // before 3.4
}

// NewAssignorState is the memory of a brand-new leader.
func NewAssignorState() AssignorState {
	return AssignorState{
		PreviousAssignment:   Pieces{Connectors: []string{}, Tasks: []TaskID{}},
		PreviousRevocation:   Pieces{Connectors: []string{}, Tasks: []TaskID{}},
		PreviousGenerationID: -1,
		PreviousMembers:      []string{},
		Candidates:           []string{},
		CanRevoke:            true,
	}
}

// MemberInput is one JoinGroup member as the leader decoded it.
type MemberInput struct {
	ID    string
	Owned Pieces // the metadata allocation in decoded entry order (not sorted)
}

// AssignInput is everything the leader's assignor sees in one round.
type AssignInput struct {
	Members                 []MemberInput   // JoinGroup member order
	Connectors              []ConnectorSpec // the leader's config snapshot
	NowMs                   int64           // leader clock
	Generation              int             // generation being formed
	LastCompletedGeneration int             // leader's lastCompletedGenerationId
}

// MemberAssignment is what the leader sends one member.
type MemberAssignment struct {
	ID       string
	Assigned Pieces // leader `next` order (not sorted): serialize in this order
	Revoked  Pieces // sorted
	DelayMs  int64
}

// AssignOutput is one round's result, members in AssignInput order.
type AssignOutput struct {
	Members []MemberAssignment
	DelayMs int64
}

// Assign runs one leader round of the assignor cfg selects, from explicit
// state, and returns the assignments with the state for the next round.
// Protocol "eager" ignores st and sends every member its full assignment.
func Assign(cfg SimConfig, st AssignorState, in AssignInput) (AssignOutput, AssignorState, error) {
	s, err := NewSim(cfg)
	if err != nil {
		return AssignOutput{}, st, err
	}
	seen := make(map[string]bool, len(in.Members))
	members := make([]roundMember, len(in.Members))
	for i, m := range in.Members {
		if m.ID == "" || seen[m.ID] {
			return AssignOutput{}, st, fmt.Errorf("member %d: empty or repeated member id %q", i, m.ID)
		}
		seen[m.ID] = true
		c, t := s.ix.internPieces(m.Owned)
		c, t = dedupeIDs(c), dedupeIDs(t)
		members[i] = roundMember{id: m.ID, hash: javaStringHash(m.ID), conns: c, tasks: t}
	}
	s.SetConnectors(in.Connectors)
	out := AssignOutput{Members: make([]MemberAssignment, len(in.Members))}
	if len(members) == 0 {
		return out, st, nil
	}
	if s.eager {
		outs := eagerRound(s.ix, members, s.cfgConns, func(c int32) []int32 { return s.taskIDsOf[c] })
		for i, o := range outs {
			out.Members[i] = MemberAssignment{
				ID:       in.Members[i].ID,
				Assigned: s.ix.orderedPieces(o.assignedConns, o.assignedTasks),
				Revoked:  Pieces{Connectors: []string{}, Tasks: []TaskID{}},
			}
		}
		return out, st, nil
	}
	s.SetState(st)
	res := s.eng.round(s.ix, &roundIn{
		members:       members,
		cfgConns:      s.cfgConns,
		cfgTasks:      s.cfgTasks,
		now:           in.NowMs,
		gen:           in.Generation,
		lastCompleted: in.LastCompletedGeneration,
	})
	for i := range res.members {
		o := &res.members[i]
		out.Members[i] = MemberAssignment{
			ID:       in.Members[i].ID,
			Assigned: s.ix.orderedPieces(o.assignedConns, o.assignedTasks),
			Revoked:  s.ix.sortedPieces(o.revokedConns, o.revokedTasks, &s.keyBuf),
			DelayMs:  res.delay,
		}
	}
	out.DelayMs = res.delay
	return out, s.State(), nil
}

func dedupeIDs(ids []int32) []int32 {
	if len(ids) < 2 {
		return ids
	}
	seen := make(map[int32]struct{}, len(ids))
	out := ids[:0]
	for _, x := range ids {
		if _, ok := seen[x]; !ok {
			seen[x] = struct{}{}
			out = append(out, x)
		}
	}
	return out
}

// orderedPieces converts ids to Pieces keeping their order.
func (ix *interner) orderedPieces(conns, tasks []int32) Pieces {
	p := Pieces{Connectors: make([]string, 0, len(conns)), Tasks: make([]TaskID, 0, len(tasks))}
	for _, c := range conns {
		p.Connectors = append(p.Connectors, ix.conns.names[c])
	}
	for _, t := range tasks {
		p.Tasks = append(p.Tasks, ix.taskID(ix.taskConn[t], int(ix.taskNum[t])))
	}
	return p
}

// State returns a copy of the leader's memory.
func (s *Sim) State() AssignorState {
	st := &s.eng.st
	var pc, pt []int32
	for c, ok := range st.prevConn {
		if ok {
			pc = append(pc, int32(c))
		}
	}
	for t, ok := range st.prevTask {
		if ok {
			pt = append(pt, int32(t))
		}
	}
	return AssignorState{
		PreviousAssignment:           s.ix.sortedPieces(pc, pt, &s.keyBuf),
		PreviousRevocation:           s.ix.sortedPieces(dedupeIDs(slices.Clone(st.revConns)), dedupeIDs(slices.Clone(st.revTasks)), &s.keyBuf),
		PreviousGenerationID:         st.prevGen,
		PreviousMembers:              append([]string{}, st.prevMembers...),
		ScheduledRebalanceMs:         st.scheduled,
		DelayMs:                      st.delay,
		Candidates:                   append([]string{}, st.candidates...),
		RevokedInPrevious:            st.revokedInPrevious,
		SuccessiveRevokingRebalances: int(st.successive),
		CanRevoke:                    st.canRevoke,
	}
}

// SetState replaces the leader's memory, e.g. with an approximation built
// from a live cluster (assignor.md §10).
func (s *Sim) SetState(a AssignorState) {
	ns := freshCoopState()
	pc, pt := s.ix.internPieces(a.PreviousAssignment)
	ns.prevConn = make([]bool, s.ix.nConns())
	ns.prevTask = make([]bool, s.ix.nTasks())
	for _, c := range pc {
		ns.prevConn[c] = true
	}
	for _, t := range pt {
		ns.prevTask[t] = true
	}
	ns.revConns, ns.revTasks = s.ix.internPieces(a.PreviousRevocation)
	ns.prevGen = a.PreviousGenerationID
	ns.prevMembers = slices.Clone(a.PreviousMembers)
	ns.scheduled = a.ScheduledRebalanceMs
	ns.delay = a.DelayMs
	ns.candidates = slices.Clone(a.Candidates)
	ns.revokedInPrevious = a.RevokedInPrevious
	ns.successive = int64(a.SuccessiveRevokingRebalances)
	ns.canRevoke = a.CanRevoke
	s.eng.st = ns
}
