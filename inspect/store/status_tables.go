package store

import (
	"strconv"

	"github.com/connectscope/connectscope/format"
)

// Tables shows connector, task and topic statuses; wide adds generations
// and the first line of traces.
func (r *StatusResult) Tables() []format.Table {
	conns := format.Table{
		Title:  "Connector status (" + r.Topic + ")",
		Header: []string{"NAME", "STATE", "WORKER", "GENERATION", "TRACE"},
		Wide:   []int{3, 4},
	}
	for _, c := range r.Connectors {
		conns.Rows = append(conns.Rows, []string{c.Name, c.State, format.TextOr(c.WorkerID, "-"), strconv.Itoa(int(c.Generation)), firstLine(c.Trace)})
	}
	tasks := format.Table{Title: "Task status", Header: []string{"ID", "STATE", "WORKER", "GENERATION", "TRACE"}, Wide: []int{3, 4}}
	for _, s := range r.Tasks {
		tasks.Rows = append(tasks.Rows, []string{s.ID, s.State, format.TextOr(s.WorkerID, "-"), strconv.Itoa(int(s.Generation)), firstLine(s.Trace)})
	}
	topics := format.Table{Title: "Active topics", Header: []string{"CONNECTOR", "TOPIC", "TASK", "DISCOVERED"}, Key: []int{0, 1}}
	for _, s := range r.Topics {
		topics.Rows = append(topics.Rows, []string{s.Connector, s.Topic, strconv.Itoa(int(s.Task)), timeText(s.DiscoverTimestampMs)})
	}
	return viewTables(r.Records, r.Problems, conns, tasks, topics)
}

// Items gives one JSON line per connector, task and topic status, each
// with a "kind" of "connector", "task" or "topic".
func (r *StatusResult) Items() []any {
	items := format.Tagged("kind", "connector", r.Connectors)
	items = append(items, format.Tagged("kind", "task", r.Tasks)...)
	return append(items, format.Tagged("kind", "topic", r.Topics)...)
}
