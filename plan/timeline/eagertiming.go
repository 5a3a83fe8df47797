package timeline

import (
	"fmt"

	"github.com/connectscope/connectscope/format"
)

// noteEagerStop notes, once per plan, that an eager round's cost rests on
// how long its members take to stop all their work before they rejoin:
// the plan takes EagerStopMs for the member holding the most, real eager
// stops took EagerStopEarliestMs to EagerStopLatestMs (a source task
// stops only when its poll returns, which no snapshot shows), and the
// round waits for the slowest member. The note gives what that range
// means for the round's running tasks.
func (e *engine) noteEagerStop(held int) {
	if e.eagerStopNoted || !e.eager || held <= 0 || e.model.HeartbeatIntervalMs <= 0 {
		return
	}
	tasks := 0
	for _, m := range e.joined {
		if !m.dead && !m.gone {
			tasks += m.tasks
		}
	}
	if tasks == 0 {
		return
	}
	e.eagerStopNoted = true
	planned := EagerStopMs(held)
	less := max(planned-EagerStopEarliestMs, 0) * int64(tasks)
	more := max(EagerStopLatestMs-planned, 0) * int64(tasks)
	e.notes = append(e.notes, fmt.Sprintf("timing-dependent: under eager every member stops all its work before it rejoins and each round waits for the slowest, taken as %s (for the member holding the most); real eager stops took %s to %s, as long as their source tasks' polls took to return, which no snapshot shows: round %d stops %d running tasks, which can add up to %s fewer or %s more task-seconds not running than planned, and every figure after it moves with it",
		format.Millis(planned), format.Millis(EagerStopEarliestMs), format.Millis(EagerStopLatestMs), len(e.rounds)+1, tasks, format.Millis(less), format.Millis(more)))
}
