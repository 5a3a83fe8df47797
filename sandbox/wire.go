package sandbox

import (
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/plan/assignor"
)

// heldEntries serializes a worker's lists as Kafka does for an assigned
// list or a metadata allocation: connectors in Java HashSet order, then the
// tasks appended to their connector's entry (assignor.md §6.3 rule 3). The
// sandbox's workers behave as on JDK 17 (jdk 0), like the simulator.
func heldEntries(h holding) []protocol.ConnectorEntry {
	return protocol.EntriesFor(assignor.WireConnectorOrder(h.Connectors, 0), taskRefs(h.Tasks))
}

// revokedEntries serializes a revoked list: connectors in list order, no
// HashSet (connect-internals.md §4.3).
func revokedEntries(h holding) []protocol.ConnectorEntry {
	return protocol.EntriesFor(h.Connectors, taskRefs(h.Tasks))
}

func taskRefs(ts []taskID) []protocol.TaskRef {
	out := make([]protocol.TaskRef, len(ts))
	for i, t := range ts {
		out[i] = protocol.TaskRef{Connector: t.Connector, Task: int32(t.Task)}
	}
	return out
}

// holdingOfEntries turns decoded lists (byte order) into a holding.
func holdingOfEntries(conns []string, tasks []protocol.TaskRef) holding {
	h := holding{Connectors: append([]string(nil), conns...)}
	for _, t := range tasks {
		h.Tasks = append(h.Tasks, taskID{Connector: t.Connector, Task: int(t.Task)})
	}
	return h
}
