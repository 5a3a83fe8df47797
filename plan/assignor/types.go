// Package assignor simulates Kafka Connect rebalances: the incremental
// cooperative assignor (KIP-415, assignor.md §2-§6), the eager assignor (§7)
// and the stateful Sim every replay, what-if and sandbox path goes through.
package assignor

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// TaskID names one task of a connector; String() is "CONNECTOR-N".
type TaskID struct {
	Connector string
	Task      int
}

func (t TaskID) String() string { return t.Connector + "-" + strconv.Itoa(t.Task) }

// CompareTaskIDs orders tasks by connector name, then task number.
func CompareTaskIDs(a, b TaskID) int {
	return cmp.Or(cmp.Compare(a.Connector, b.Connector), cmp.Compare(a.Task, b.Task))
}

// MarshalText makes a TaskID a JSON string ("orders-0") and a valid map key.
func (t TaskID) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText parses "CONNECTOR-N"; the connector name may itself contain dashes.
func (t *TaskID) UnmarshalText(b []byte) error {
	id, err := ParseTaskID(string(b))
	if err != nil {
		return err
	}
	*t = id
	return nil
}

// ParseTaskID splits "CONNECTOR-N" at the last dash.
func ParseTaskID(s string) (TaskID, error) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || i == len(s)-1 {
		return TaskID{}, fmt.Errorf("task id %q: want CONNECTOR-N", s)
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return TaskID{}, fmt.Errorf("task id %q: task number: %w", s, err)
	}
	return TaskID{Connector: s[:i], Task: n}, nil
}

// Less orders tasks by connector name (Go string order), then task number.
func (t TaskID) Less(o TaskID) bool {
	if t.Connector != o.Connector {
		return t.Connector < o.Connector
	}
	return t.Task < o.Task
}

// Pieces is a set of connectors and tasks. Results are sorted (names, then
// connector+task number); inputs that carry a worker's held order say so.
type Pieces struct {
	Connectors []string `json:"connectors" yaml:"connectors"`
	Tasks      []TaskID `json:"tasks" yaml:"tasks"`
}

// Len is the number of connectors plus tasks.
func (p Pieces) Len() int { return len(p.Connectors) + len(p.Tasks) }

// ConnectorSpec is one configured connector; Tasks=0 for a STOPPED connector.
type ConnectorSpec struct {
	Name  string
	Tasks int
}

// SimConfig selects the assignor and its settings.
type SimConfig struct {
	Protocol     string               // eager | compatible | sessioned ("" = sessioned)
	MaxDelayMs   int64                // scheduled.rebalance.max.delay.ms
	KafkaVersion kafkaversion.Version // unknown = current (3.9) behaviour
	JDK          int                  // 0 = 17; decides HashSet copy sizing (assignor.md §6.2)
}

// Round is one rebalance as every member sees it.
type Round struct {
	Step       int // scenario step index; set by the replay code, -1 otherwise
	Generation int
	TimeMs     int64
	Workers    map[string]WorkerRound
}

// WorkerRound is what one member was sent in a round and owns after applying it.
// Revoked may name pieces the member did not own (assignor.md §3 step 6 rule 4).
type WorkerRound struct {
	Assigned, Revoked, Owned Pieces
	DelayMs                  int64
}
