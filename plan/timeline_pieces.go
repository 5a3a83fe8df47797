package plan

import (
	"sort"

	"github.com/connectscope/connectscope/plan/assignor"
)

// pieceKey names one piece of work: a connector instance (Task == -1) or a task.
type pieceKey struct {
	Connector string
	Task      int
}

func (k pieceKey) isConnector() bool { return k.Task < 0 }

// less orders pieces as the JSON contract does: connector name, then the
// connector instance before its tasks, then task number.
func (k pieceKey) less(o pieceKey) bool {
	if k.Connector != o.Connector {
		return k.Connector < o.Connector
	}
	return k.Task < o.Task
}

// keysOf flattens Pieces into keys, connectors first.
func keysOf(p assignor.Pieces) []pieceKey {
	out := make([]pieceKey, 0, len(p.Connectors)+len(p.Tasks))
	for _, c := range p.Connectors {
		out = append(out, pieceKey{Connector: c, Task: -1})
	}
	for _, t := range p.Tasks {
		out = append(out, pieceKey{Connector: t.Connector, Task: t.Task})
	}
	return out
}

// piecesOf builds sorted Pieces from keys.
func piecesOf(keys []pieceKey) assignor.Pieces {
	p := assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}
	for _, k := range keys {
		if k.isConnector() {
			p.Connectors = append(p.Connectors, k.Connector)
		} else {
			p.Tasks = append(p.Tasks, assignor.TaskID{Connector: k.Connector, Task: k.Task})
		}
	}
	sort.Strings(p.Connectors)
	sort.Slice(p.Tasks, func(i, j int) bool {
		a, b := p.Tasks[i], p.Tasks[j]
		if a.Connector != b.Connector {
			return a.Connector < b.Connector
		}
		return a.Task < b.Task
	})
	return p
}

// pieceSet is a set of pieces with sorted extraction.
type pieceSet map[pieceKey]bool

func setOf(p assignor.Pieces) pieceSet {
	s := pieceSet{}
	for _, k := range keysOf(p) {
		s[k] = true
	}
	return s
}

func (s pieceSet) sorted() []pieceKey {
	out := make([]pieceKey, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	return out
}

// configuredKeys lists every piece the connectors define, sorted.
func configuredKeys(specs []assignor.ConnectorSpec) []pieceKey {
	out := []pieceKey{}
	for _, c := range specs {
		out = append(out, pieceKey{Connector: c.Name, Task: -1})
		for i := 0; i < c.Tasks; i++ {
			out = append(out, pieceKey{Connector: c.Name, Task: i})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	return out
}

// names renders keys as the JSON contract writes them: connectors by name,
// tasks as CONNECTOR-N; the two kinds are returned separately.
func names(keys []pieceKey) (conns, tasks []string) {
	conns, tasks = []string{}, []string{}
	for _, k := range keys {
		if k.isConnector() {
			conns = append(conns, k.Connector)
		} else {
			tasks = append(tasks, assignor.TaskID{Connector: k.Connector, Task: k.Task}.String())
		}
	}
	return conns, tasks
}
