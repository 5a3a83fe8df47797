package cluster

import (
	"slices"
	"sort"

	"github.com/connectscope/connectscope/plan/assignor"
)

// PieceKey names one piece of work: a connector instance (Task == -1) or a task.
type PieceKey struct {
	Connector string
	Task      int
}

func (k PieceKey) IsConnector() bool { return k.Task < 0 }

// less orders pieces as the JSON contract does: connector name, then the
// connector instance before its tasks, then task number.
func (k PieceKey) Less(o PieceKey) bool {
	if k.Connector != o.Connector {
		return k.Connector < o.Connector
	}
	return k.Task < o.Task
}

// KeysOf flattens Pieces into keys, connectors first.
func KeysOf(p assignor.Pieces) []PieceKey {
	out := make([]PieceKey, 0, len(p.Connectors)+len(p.Tasks))
	for _, c := range p.Connectors {
		out = append(out, PieceKey{Connector: c, Task: -1})
	}
	for _, t := range p.Tasks {
		out = append(out, PieceKey{Connector: t.Connector, Task: t.Task})
	}
	return out
}

// piecesOf builds sorted Pieces from keys.
func PiecesOf(keys []PieceKey) assignor.Pieces {
	p := assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}
	for _, k := range keys {
		if k.IsConnector() {
			p.Connectors = append(p.Connectors, k.Connector)
		} else {
			p.Tasks = append(p.Tasks, assignor.TaskID{Connector: k.Connector, Task: k.Task})
		}
	}
	sort.Strings(p.Connectors)
	slices.SortFunc(p.Tasks, assignor.CompareTaskIDs)
	return p
}

// PieceSet is a set of pieces with sorted extraction.
type PieceSet map[PieceKey]bool

func setOf(p assignor.Pieces) PieceSet {
	s := PieceSet{}
	for _, k := range KeysOf(p) {
		s[k] = true
	}
	return s
}

func (s PieceSet) sorted() []PieceKey {
	out := make([]PieceKey, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// ConfiguredKeys lists every piece the connectors define, sorted.
func ConfiguredKeys(specs []assignor.ConnectorSpec) []PieceKey {
	out := []PieceKey{}
	for _, c := range specs {
		out = append(out, PieceKey{Connector: c.Name, Task: -1})
		for i := 0; i < c.Tasks; i++ {
			out = append(out, PieceKey{Connector: c.Name, Task: i})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// names renders keys as the JSON contract writes them: connectors by name,
// tasks as CONNECTOR-N; the two kinds are returned separately.
func PieceNames(keys []PieceKey) (conns, tasks []string) {
	conns, tasks = []string{}, []string{}
	for _, k := range keys {
		if k.IsConnector() {
			conns = append(conns, k.Connector)
		} else {
			tasks = append(tasks, assignor.TaskID{Connector: k.Connector, Task: k.Task}.String())
		}
	}
	return conns, tasks
}
