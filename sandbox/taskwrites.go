package sandbox

import (
	"context"
	"slices"
	"time"
)

// Task configs are the connector's to write. A Connect worker generates a
// connector's task configs only while the connector runs on it (the
// connector's taskConfigs, written through the leader after a
// reconfiguration); a connector that runs on no worker, its work held back
// for a departed worker during the scheduled delay, keeps its old tasks
// until it is dealt again and starts. The sandbox's operations write the
// connector config, and the task configs at once only when a running
// worker holds the connector; otherwise the worker that starts it next
// writes them.

// setTasks sets the committed task count, forgetting failures of tasks
// that no longer exist. Cluster.mu held.
func (cs *connectorState) setTasks(n int) {
	cs.tasks = n
	for t := range cs.failed {
		if t >= n {
			delete(cs.failed, t)
		}
	}
}

// runsOnAWorker says whether a running worker holds the connector.
func (c *Cluster) runsOnAWorker(name string) bool {
	for _, w := range c.WorkerStates() {
		if slices.Contains(w.Owned.Connectors, name) {
			return true
		}
	}
	return false
}

// writePendingTasks writes the task configs a connector was waiting for,
// as the worker that has just started it: its tasks and the commit, then
// every worker rejoins (the leader deals the new tasks).
func (w *worker) writePendingTasks(name string) {
	w.c.mu.Lock()
	cs, ok := w.c.connectors[name]
	if !ok || !cs.tasksPending || cs.target == TargetStopped {
		w.c.mu.Unlock()
		return
	}
	cs.tasksPending = false
	cp := *cs
	w.c.mu.Unlock()
	// In Kafka the connector starts after onJoinComplete, when the
	// coordinator has answered every member of the generation together
	// (syncgate.go); the rejoin its task configs cause must not reach a
	// peer whose SyncGroup is still on its way (it would rejoin reporting
	// its previous assignment, and the leader would deal that work anew).
	// This runs on the worker's loop (startPieces), so the wait may
	// heartbeat as awaitPeers does.
	w.awaitPeers(w.generation)
	ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
	defer cancel()
	if err := w.c.writeConfig(ctx, taskRecords(&cp, cp.tasksMax)...); err != nil {
		w.c.log.printf("worker %s: writing the task configs of %s: %v", w.name, name, err)
		return
	}
	w.c.mu.Lock()
	if live, ok := w.c.connectors[name]; ok {
		live.setTasks(cp.tasksMax)
	}
	w.c.mu.Unlock()
	w.c.log.printf("worker %s started %s and wrote its %d task configs", w.name, name, cp.tasksMax)
	w.c.notifyAll(workerMsg{kind: msgRejoin})
}
