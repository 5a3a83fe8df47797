package cluster

import (
	"fmt"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
)

// Phase is when the members' heartbeat timers last restarted before the
// state was read, as far as the status topic shows it. Members heartbeat
// in step every heartbeat.interval.ms from their JoinGroup answer in the
// last round; a worker starting its assigned work writes its first status
// record a few milliseconds after that answer. So the first record of the
// last generation dates the round, and with it when a member killed now
// last heartbeated (the broker expires it session.timeout.ms later) and
// when the others next learn of a change.
type Phase struct {
	AtMs       int64 // the last generation's first status record (epoch ms)
	Generation int32
}

// MaxPhaseAge bounds how far back a phase is carried: heartbeats drift a
// few milliseconds an interval (each is sent when due, then the timer
// restarts), so a phase older than this many intervals is not used.
const MaxPhaseAge = 60

// phaseFromDataset finds the heartbeat phase, or says why it cannot be
// seen. Only a settled group shows it: a round that told a delay, revoked
// work or deleted a connector writes no record that dates it, and neither
// does one that gave a member nothing.
func phaseFromDataset(d *views.Dataset, st State, members *group.MembersResult) (*Phase, string) {
	switch {
	case d.TakenAtMs == 0:
		return nil, "the input has no read time"
	case members.State != "Stable":
		return nil, fmt.Sprintf("the group was %s when read", members.State)
	}
	for _, m := range members.Members {
		switch a := m.Assignment; {
		case a == nil:
			return nil, fmt.Sprintf("the assignment of %s could not be read", m.MemberID)
		case a.DelayMs > 0:
			return nil, "the last round told a delay, which writes no status record"
		case len(a.RevokedConnectors)+len(a.RevokedTasks) > 0:
			return nil, "the last round revoked work and its follow-up has not run"
		}
	}
	for _, w := range st.Workers {
		if len(w.Owned.Connectors)+len(w.Owned.Tasks) == 0 {
			return nil, fmt.Sprintf("member %s owns nothing: the round that let it join may have written no status record", w.ID)
		}
	}
	records := d.StatusRecords()
	rbs := history.FromRecords(d.Topics.Status, records).Rebalances
	if len(rbs) == 0 {
		return nil, "the status topic shows no generation"
	}
	last := rbs[len(rbs)-1]
	for _, rb := range rbs[:len(rbs)-1] {
		if rb.LastMs > last.FirstMs {
			return nil, fmt.Sprintf("generation %d wrote after generation %d began (the generations do not follow the clock: a new group or a reset)", rb.Generation, last.Generation)
		}
	}
	for _, r := range records {
		if r.Value == nil && r.Timestamp > last.FirstMs {
			return nil, fmt.Sprintf("a status record was deleted after generation %d began (a connector deleted in a round that wrote nothing)", last.Generation)
		}
	}
	if last.FirstMs > d.TakenAtMs {
		return nil, fmt.Sprintf("generation %d began after the read time", last.Generation)
	}
	return &Phase{AtMs: last.FirstMs, Generation: last.Generation}, ""
}

// PhaseStatement says where the plan's heartbeat phase came from, for
// its assumptions; atMs is the phase in plan time (at or before 0).
func (p *Phase) PhaseStatement(atMs int64) string {
	return fmt.Sprintf("the members' heartbeat phase before the plan's first round is the first status record of generation %d, %s before time 0: the members heartbeat every heartbeat.interval.ms from it (a change is learnt at the next such heartbeat; a member killed at 0 last heartbeated at the one before)", p.Generation, format.Millis(-atMs))
}
