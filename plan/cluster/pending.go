package cluster

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/assignor"
)

// Pending is what the group's leader holds between rounds, as far as a
// snapshot or live read shows it (assignor.md §2 and §10): the delay the
// last assignments told, the pieces it holds back for departed workers, the
// empty members it will deal them to, a revocation not yet followed up. The
// leader's memory itself is never visible; every field says what was seen,
// and Reconstructed / NotSeen say how the rest was inferred.
type Pending struct {
	// DelayMs is the delay the members' last assignments told (0 = none).
	DelayMs int64
	// TakenAtMs is when the state was read (epoch ms; 0 = unknown).
	TakenAtMs int64
	// DepartedAtMs is the earliest clean stop of a departed worker that the
	// status topic shows (its UNASSIGNED records, epoch ms; 0 = none seen):
	// the departure round, which anchors the deadline, followed at once.
	DepartedAtMs int64
	// Lost are the configured pieces no member holds while a delay runs:
	// the leader holds them back for the departed workers.
	Lost assignor.Pieces
	// Unowned are configured pieces no member holds with no delay told
	// (new, or revoked and not yet reassigned): the next round assigns them.
	Unowned assignor.Pieces
	// Departed are the workers (as the status topic names them) that last
	// ran a lost piece and are no longer members.
	Departed []string
	// Candidates are the members holding nothing while the delay runs, in
	// member order: the leader deals the lost pieces to them at the deadline.
	Candidates []string
	// Revoked are the pieces the last assignments revoked; a follow-up
	// round is then due at once.
	Revoked assignor.Pieces
	// Backoff is the consecutive-revocation count when the delay told is a
	// revocation backoff (40 ms, 1.6 s, 64 s); 0 otherwise.
	Backoff int
	// Rebalancing is the group state when a round was in progress when read.
	Rebalancing string
	// EndsInMs overrides when the delay ends, from plan time 0 (nil = from
	// what was seen).
	EndsInMs *int64
	// ZeroAtMs is the moment (epoch ms) plan time 0 stands for when it is
	// not the read (timeline.Options.ZeroAtMs: an event after the
	// snapshot); 0 = the read. The delay has run on in between.
	ZeroAtMs int64

	Reconstructed []string
	NotSeen       []string
}

// PendingView is Pending in a plan's JSON assumptions (`pending`).
type PendingView struct {
	DelayMs           int64    `json:"delay_ms"`
	DelayEndsAfterMs  *int64   `json:"delay_ends_after_ms"` // plan time; null = no delay pending
	DelayEndsSource   string   `json:"delay_ends_source"`
	LostConnectors    []string `json:"lost_connectors"`
	LostTasks         []string `json:"lost_tasks"`
	UnownedPieces     []string `json:"unowned"`
	DepartedWorkers   []string `json:"departed_workers"`
	Candidates        []string `json:"candidates"`
	Revoked           []string `json:"revoked"`
	RevocationBackoff int      `json:"revocation_backoff"`
	RoundPending      bool     `json:"round_pending"`
	Reconstructed     []string `json:"reconstructed"`
	NotSeen           []string `json:"not_seen"`
}

// Holding reports that the leader holds something the next round acts on.
func (p *Pending) Holding() bool {
	return p != nil && (p.DelayMs > 0 || !emptyPieces(p.Lost) || !emptyPieces(p.Unowned) || !emptyPieces(p.Revoked) || p.Rebalancing != "")
}

func emptyPieces(p assignor.Pieces) bool { return len(p.Connectors)+len(p.Tasks) == 0 }

// RoundDue says the first round runs at plan time 0: a revocation waits for
// its follow-up, a rebalance is in progress, or the delay already ended.
func (p *Pending) RoundDue(maxDelayMs int64) (bool, string) {
	switch {
	case p == nil:
		return false, ""
	case p.Rebalancing != "":
		return true, "rebalance in progress when read (" + p.Rebalancing + ")"
	case !emptyPieces(p.Revoked):
		return true, "revocations to follow up (seen in the last assignments)"
	}
	if p.DelayMs > 0 {
		if ends, _ := p.endsIn(maxDelayMs); ends == 0 {
			return true, "scheduled rebalance (delay ended)"
		}
	}
	return false, ""
}

// endsIn is when the pending delay ends, from plan time 0 (the moment the
// state was read), and how that was worked out. The delay told is counted
// from the round that told it; the leader anchors the deadline at the first
// departure, so later rounds tell less. When the departure is visible (a
// clean stop writes UNASSIGNED records), the deadline is that moment plus
// the max delay, never later than the delay told; otherwise the round is
// taken to be the moment of reading: the latest the delay can end.
func (p *Pending) endsIn(maxDelayMs int64) (int64, string) {
	if p.EndsInMs != nil {
		return max(*p.EndsInMs, 0), "given"
	}
	since, zero := p.sinceRead()
	if p.DepartedAtMs > 0 && p.TakenAtMs > 0 && p.Backoff == 0 {
		left := p.DepartedAtMs + maxDelayMs - p.TakenAtMs - since
		left = max(min(left, p.DelayMs-since), 0)
		return left, fmt.Sprintf("the departure seen in the status topic %s before %s, plus max delay %s (at most the %s told)",
			format.Millis(p.TakenAtMs+since-p.DepartedAtMs), zero, format.Millis(maxDelayMs), format.Millis(p.DelayMs))
	}
	read := "the moment of reading"
	if since > 0 {
		read += ", " + format.Millis(since) + " before time 0"
	}
	return max(p.DelayMs-since, 0), fmt.Sprintf("the round that told %s is not visible: taken as %s, the latest the delay can end (it may end up to %s earlier)", format.Millis(p.DelayMs), read, format.Millis(p.DelayMs))
}

// sinceRead is how long after the read plan time 0 is, and how the
// assumptions name time 0.
func (p *Pending) sinceRead() (int64, string) {
	if p.ZeroAtMs > p.TakenAtMs && p.TakenAtMs > 0 {
		return p.ZeroAtMs - p.TakenAtMs, "time 0"
	}
	return 0, "the read"
}

// From is p with plan time 0 at zeroAtMs (epoch ms; 0 = the read); nil
// stays nil.
func (p *Pending) From(zeroAtMs int64) *Pending {
	if p == nil || zeroAtMs == 0 {
		return p
	}
	q := *p
	q.ZeroAtMs = zeroAtMs
	return &q
}

// view renders the pending state for the plan's assumptions; nil when
// nothing is pending.
func (p *Pending) View(maxDelayMs int64) *PendingView {
	if !p.Holding() {
		return nil
	}
	v := &PendingView{
		DelayMs: p.DelayMs, DepartedWorkers: nonNil(p.Departed), Candidates: nonNil(p.Candidates),
		RevocationBackoff: p.Backoff, Reconstructed: nonNil(p.Reconstructed), NotSeen: nonNil(p.NotSeen),
	}
	v.LostConnectors, v.LostTasks = PieceNames(KeysOf(p.Lost))
	uc, ut := PieceNames(KeysOf(p.Unowned))
	v.UnownedPieces = append(uc, ut...)
	rc, rt := PieceNames(KeysOf(p.Revoked))
	v.Revoked = append(rc, rt...)
	if p.DelayMs > 0 {
		ends, why := p.endsIn(maxDelayMs)
		v.DelayEndsAfterMs, v.DelayEndsSource = &ends, why
	}
	v.RoundPending, _ = p.RoundDue(maxDelayMs)
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// LeaderMemory is the assignor state the leader has at plan time 0, and the
// delay still to run (-1 = none). Without anything pending it is the memory
// of a settled cluster: the previous assignment is what the members own,
// nothing is held back, no delay or backoff runs.
func LeaderMemory(sim *assignor.Sim, p *Pending, maxDelayMs int64) (assignor.AssignorState, int64) {
	st := assignor.NewAssignorState()
	owned := PieceSet{}
	for _, w := range sim.Members() {
		for _, k := range KeysOf(sim.Owned(w)) {
			owned[k] = true
		}
	}
	st.PreviousGenerationID = sim.Generation()
	st.PreviousMembers = append([]string(nil), sim.Members()...)
	delayedAt := int64(-1)
	if p.Holding() {
		if p.DelayMs > 0 {
			for _, k := range KeysOf(p.Lost) {
				owned[k] = true // held back: part of the previous assignment, so lost again
			}
			ends, _ := p.endsIn(maxDelayMs)
			// A deadline of 0 means "none" to the assignor: the clock
			// starts past 0 so a delay that has already ended is due.
			st.ScheduledRebalanceMs = sim.Now() + ends
			st.DelayMs = p.DelayMs
			st.Candidates = append([]string{}, p.Candidates...)
			if p.Backoff > 0 {
				st.RevokedInPrevious = true
				st.SuccessiveRevokingRebalances = p.Backoff
			}
			delayedAt = ends
		}
		if !emptyPieces(p.Revoked) {
			st.PreviousRevocation = p.Revoked
			st.RevokedInPrevious = true
		}
	}
	st.PreviousAssignment = PiecesOf(owned.sorted())
	return st, delayedAt
}

// statusLast is the last status record of one piece.
type statusLast struct {
	state, worker string
	atMs          int64
}

// lastStatuses reads the status topic for the last record of every
// connector and task, with its timestamp (the decoded status view keeps
// neither the time nor records of members that left).
func lastStatuses(d *views.Dataset) map[PieceKey]statusLast {
	_, status, _, _ := store.SplitTopics(d.Records, d.Topics)
	out := map[PieceKey]statusLast{}
	for _, r := range status {
		key := store.ParseStatusRecordKey(r.Key)
		if !key.OfPiece() {
			continue
		}
		k := PieceKey{Connector: key.Connector, Task: -1}
		if key.Kind == store.StatusKeyTask {
			k.Task = int(key.Task)
		}
		if r.Value == nil {
			delete(out, k)
			continue
		}
		var v struct {
			State    string `json:"state"`
			WorkerID string `json:"worker_id"`
		}
		if json.Unmarshal(r.Value, &v) != nil {
			continue
		}
		out[k] = statusLast{state: v.State, worker: v.WorkerID, atMs: r.Timestamp}
	}
	return out
}

// pendingFromDataset reconstructs what the leader holds from what was read:
// the members' last assignments (delay, revocations), what they own, the
// configured pieces and the status topic's last records with their times.
func pendingFromDataset(d *views.Dataset, st State, members *group.MembersResult) *Pending {
	p := &Pending{TakenAtMs: d.TakenAtMs}
	if st.Protocol == "default" || st.Protocol == "eager" {
		return p // eager leaders keep no memory between rounds
	}
	revoked, seen := p.readAssignments(members)
	if !seen {
		p.NotSeen = append(p.NotSeen, "no member's assignment could be read: whether the leader holds work back or a delay runs is unknown; taken as nothing pending")
		return p
	}
	switch members.State {
	case "PreparingRebalance", "CompletingRebalance":
		p.Rebalancing = members.State
		p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("the group was rebalancing (%s): the round in progress runs at 0 s over the members shown", members.State))
	}
	unowned := unownedPieces(st, revoked)
	if len(revoked) > 0 {
		p.Revoked = PiecesOf(revoked.sorted())
		p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("the last assignments revoked %d piece(s): the follow-up round runs at 0 s and the leader counts a revoking round before it", len(revoked)))
	}
	if p.DelayMs == 0 {
		if len(unowned) > 0 {
			p.Unowned = PiecesOf(unowned)
			p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("%d configured piece(s) are held by no member and no delay was told: the next round assigns them as new work", len(unowned)))
		}
		return p
	}
	if len(unowned) == 0 {
		if k := backoffStep(p.DelayMs); k > 0 {
			p.Backoff = k
			p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("delay %s with nothing held back is the consecutive-revocation backoff after %d revoking round(s) in a row: load balancing waits for it", format.Millis(p.DelayMs), k))
		} else {
			p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("delay %s with nothing held back (a member that held nothing left after a revoking round): load balancing waits for it", format.Millis(p.DelayMs)))
		}
	} else {
		p.holdBack(d, st, unowned)
	}
	if p.TakenAtMs == 0 {
		p.NotSeen = append(p.NotSeen, "when the state was read (no timestamp)")
	}
	return p
}

// readAssignments takes the delay and the revocations the members were last
// told; seen is false when no member's assignment could be read.
func (p *Pending) readAssignments(members *group.MembersResult) (revoked PieceSet, seen bool) {
	delays := map[int64]bool{}
	revoked = PieceSet{}
	for _, m := range members.Members {
		a := m.Assignment
		if a == nil {
			continue
		}
		seen = true
		delays[a.DelayMs] = true
		if a.DelayMs > p.DelayMs {
			p.DelayMs = a.DelayMs
		}
		for _, c := range a.RevokedConnectors {
			revoked[PieceKey{Connector: c, Task: -1}] = true
		}
		for _, t := range a.RevokedTasks {
			if id, err := assignor.ParseTaskID(t); err == nil {
				revoked[PieceKey{Connector: id.Connector, Task: id.Task}] = true
			}
		}
	}
	if seen && len(delays) > 1 {
		p.NotSeen = append(p.NotSeen, fmt.Sprintf("the members were told different delays (the assignments are from different rounds): the longest, %s, is taken", format.Millis(p.DelayMs)))
	}
	return revoked, seen
}

// unownedPieces are the configured pieces no member holds and none was told
// to revoke.
func unownedPieces(st State, revoked PieceSet) []PieceKey {
	owned := PieceSet{}
	for _, w := range st.Workers {
		for _, k := range KeysOf(w.Owned) {
			owned[k] = true
		}
	}
	var unowned []PieceKey
	for _, k := range ConfiguredKeys(st.Connectors) {
		if !owned[k] && !revoked[k] {
			unowned = append(unowned, k)
		}
	}
	return unowned
}

// holdBack reconstructs the work the leader holds back during a delay: the
// pieces lost, who ran them (from the status topic), when they left, and
// the members that would take them.
func (p *Pending) holdBack(d *views.Dataset, st State, unowned []PieceKey) {
	p.Lost = PiecesOf(unowned)
	last := lastStatuses(d)
	departed := map[string]bool{}
	hosts := map[string]bool{}
	for _, w := range st.Workers {
		for _, a := range w.Aliases {
			hosts[strings.ToLower(a)] = true
		}
	}
	stopped := int64(0)
	unknownOwner := 0
	for _, k := range unowned {
		s, ok := last[k]
		if !ok || s.worker == "" || hosts[strings.ToLower(s.worker)] {
			unknownOwner++
			continue
		}
		departed[s.worker] = true
		if s.state == "UNASSIGNED" && s.atMs > 0 && (stopped == 0 || s.atMs < stopped) {
			stopped = s.atMs
		}
	}
	for w := range departed {
		p.Departed = append(p.Departed, w)
	}
	sort.Strings(p.Departed)
	p.DepartedAtMs = stopped
	who := "departed workers"
	if len(p.Departed) > 0 {
		who = strings.Join(p.Departed, ", ")
	}
	p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("the leader holds %d piece(s) back for %s (configured, held by no member, delay %s told): they are lost again at every round until the deadline", len(unowned), who, format.Millis(p.DelayMs)))
	if unknownOwner > 0 {
		p.NotSeen = append(p.NotSeen, fmt.Sprintf("the status topic does not say which departed worker ran %d of the held pieces", unknownOwner))
	}
	for _, w := range st.Workers {
		if len(w.Owned.Connectors)+len(w.Owned.Tasks) == 0 {
			p.Candidates = append(p.Candidates, w.ID)
		}
	}
	if len(p.Candidates) > 0 {
		p.Reconstructed = append(p.Reconstructed, fmt.Sprintf("the %d member(s) holding nothing are the leader's candidates for the held pieces, in member order (the leader keeps them in the order it first saw them empty, which is not visible)", len(p.Candidates)))
	}
	if stopped == 0 {
		p.NotSeen = append(p.NotSeen, "when the departure happened: a crash writes nothing to the status topic")
	}
}

// backoffStep is k when delay is the consecutive-revocation backoff 40^k
// (assignor.md §0: 40 ms, 1 600 ms, 64 000 ms), else 0.
func backoffStep(delay int64) int {
	for k, d := 1, int64(40); k <= 3; k, d = k+1, d*40 {
		if delay == d {
			return k
		}
	}
	return 0
}
