package sandbox

import (
	"slices"

	"github.com/connectscope/connectscope/plan/assignor"
)

// Connector kinds.
const (
	KindSource = "source"
	KindSink   = "sink"
)

// Target states (config topic, connect-internals.md §6.5).
const (
	TargetStarted = "STARTED"
	TargetPaused  = "PAUSED"
	TargetStopped = "STOPPED"
)

// taskID names one task.
type taskID = assignor.TaskID

// holding is what one worker runs, in the worker's held order (newly
// assigned first, then what it kept; assignor.md §6.3).
type holding struct {
	Connectors []string
	Tasks      []taskID
}

func (h holding) pieces() assignor.Pieces {
	return assignor.Pieces{Connectors: slices.Clone(h.Connectors), Tasks: slices.Clone(h.Tasks)}
}

func fromPieces(p assignor.Pieces) holding {
	return holding{Connectors: slices.Clone(p.Connectors), Tasks: slices.Clone(p.Tasks)}
}

func (h holding) empty() bool { return len(h.Connectors) == 0 && len(h.Tasks) == 0 }

func (h holding) clone() holding {
	return holding{Connectors: slices.Clone(h.Connectors), Tasks: slices.Clone(h.Tasks)}
}

// minus returns h without the pieces in r, keeping h's order.
func (h holding) minus(r holding) holding {
	return holding{Connectors: without(h.Connectors, r.Connectors), Tasks: without(h.Tasks, r.Tasks)}
}

// then appends the pieces of r that h lacks.
func (h holding) then(r holding) holding {
	out := h.clone()
	return holding{Connectors: appendMissing(out.Connectors, r.Connectors), Tasks: appendMissing(out.Tasks, r.Tasks)}
}

// without is list without the elements of drop, in list's order; nil when
// nothing is left.
func without[T comparable](list, drop []T) []T {
	var out []T
	for _, x := range list {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// appendMissing appends the elements of more that list lacks, in more's
// order.
func appendMissing[T comparable](list, more []T) []T {
	for _, x := range more {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

// sorted returns a copy in stable order: names, then connector + task number.
func (h holding) sorted() holding {
	out := h.clone()
	slices.Sort(out.Connectors)
	slices.SortFunc(out.Tasks, assignor.CompareTaskIDs)
	return out
}

// connectorState is the sandbox's view of one configured connector, as the
// config topic says.
type connectorState struct {
	name  string
	kind  string
	topic string // sink: topic consumed; source: topic produced to
	// multiFile marks a source created with more than one task: real
	// FileStreamSource always runs exactly one, so such a source is named
	// as the sandbox's own multi-file class rather than as connect-file.
	multiFile bool
	tasksMax  int
	tasks     int    // task count of the latest commit (0 when STOPPED)
	target    string // STARTED, PAUSED or STOPPED
	failed    map[int]bool
	// tasksPending marks a task count (tasksMax) changed while the
	// connector ran on no worker: its task configs are written by the
	// worker that runs it next (taskwrites.go).
	tasksPending bool
}

// classNames are a connector's class and its tasks' class, as its config
// records name them.
type classNames struct{ connector, task string }

var (
	fileSinkClasses   = classNames{"org.apache.kafka.connect.file.FileStreamSinkConnector", "org.apache.kafka.connect.file.FileStreamSinkTask"}
	fileSourceClasses = classNames{"org.apache.kafka.connect.file.FileStreamSourceConnector", "org.apache.kafka.connect.file.FileStreamSourceTask"}
	multiFileClasses  = classNames{"io.connectscope.sandbox.MultiFileSourceConnector", "io.connectscope.sandbox.MultiFileSourceTask"}
)

func (c *connectorState) classes() classNames {
	switch {
	case c.kind == KindSink:
		return fileSinkClasses
	case c.multiFile:
		return multiFileClasses
	}
	return fileSourceClasses
}

// ConnectorInfo describes a configured connector (for status output).
type ConnectorInfo struct {
	Name   string
	Kind   string
	Topic  string
	Tasks  int
	Target string
	Failed []int
}
