// Package detail builds the `inspect connector NAME` and `inspect worker W`
// views: everything connectscope knows about one connector or one worker,
// in one place, as `kubectl describe` shows one object.
package detail

import (
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

// Connector is one connector whole (json-output.md "inspect connector").
type Connector struct {
	Name       string  `json:"name"`
	Configured bool    `json:"configured"` // Connect holds a config (false: only a status or offsets are left)
	Class      *string `json:"class"`
	Type       *string `json:"type"` // source or sink; null without a config
	// Config is the connector config, secrets redacted unless --show-secrets.
	Config      map[string]any `json:"config"`
	TargetState *string        `json:"target_state"`
	State       *string        `json:"state"`     // the stored connector status; null when none
	WorkerID    *string        `json:"worker_id"` // the worker that wrote the status
	Generation  *int32         `json:"generation"`
	Trace       *string        `json:"trace"`
	// Owner is the Connect group member whose assignment holds the
	// connector now (its REST URL, else its client id); null when the
	// group was not read or no member holds it.
	Owner        *string               `json:"owner"`
	TaskCount    *int32                `json:"task_count"` // of the latest applied commit; null when none
	Consistent   bool                  `json:"consistent"`
	PendingTasks []string              `json:"pending_tasks"`
	Tasks        []Task                `json:"tasks"`
	Topics       []string              `json:"topics"` // topics the connector used (KIP-558), sorted
	Restart      *store.RestartRequest `json:"restart_request"`
	Offsets      []store.SourceOffset  `json:"offsets"`    // source offsets stored for it
	SinkGroup    *group.SinkView       `json:"sink_group"` // a sink's consumer group; null for a source or when not read
	// Notes say what the input could not tell (a kcat dump has no groups).
	Notes    []string             `json:"notes"`
	Records  inspect.RecordCounts `json:"records"`
	Problems []inspect.Problem    `json:"problems"`
}

// Task is one task: its config when Connect runs it, its stored status and
// the member that holds it. Stale tasks are statuses of task ids Connect no
// longer runs.
type Task struct {
	ID         string         `json:"id"`
	Task       int32          `json:"task"`
	Committed  bool           `json:"committed"` // Connect runs this task id (it is in the latest complete commit)
	Stale      bool           `json:"stale"`     // only a status is left, from a task Connect no longer runs
	State      *string        `json:"state"`
	WorkerID   *string        `json:"worker_id"`
	Generation *int32         `json:"generation"`
	Trace      *string        `json:"trace"`
	Owner      *string        `json:"owner"`
	Config     map[string]any `json:"config"` // null when Connect runs no config for it
}

// Describe builds the view of connector name from a decoded dataset (its
// options say whether secrets are shown; give no Connector filter, so an
// unknown name can list the known ones). A connector with neither a config,
// a status nor stored offsets is a *NotFoundError.
func Describe(ds *views.Dataset, name string) (*Connector, error) {
	configs, status, all := ds.Configs(), ds.Status(), ds.Offsets()
	offsets := []store.SourceOffset{}
	for _, o := range all.Offsets {
		if o.Connector == name {
			offsets = append(offsets, o)
		}
	}

	d := &Connector{Name: name, Consistent: true, PendingTasks: []string{}, Tasks: []Task{}, Notes: []string{},
		Topics: []string{}, Offsets: offsets, Problems: []inspect.Problem{}}
	tasks := taskSet{name: name, byID: map[int32]*Task{}}
	inConfig := d.addConfig(configs, &tasks)
	inStatus := d.addStatus(status, &tasks)
	if !inConfig && !inStatus && len(offsets) == 0 {
		return nil, &NotFoundError{Kind: "connector", Name: name, Known: knownConnectors(configs, status)}
	}

	if ds.Group == nil {
		d.Notes = append(d.Notes, "the input holds no Connect group description: owners are unknown")
	}
	owners := pieceOwners(ds.Members())
	d.Owner = owners[name]
	for _, t := range tasks.byID {
		t.Stale = d.Configured && !t.Committed
		t.Owner = owners[t.ID]
		d.Tasks = append(d.Tasks, *t)
	}
	slices.SortFunc(d.Tasks, func(a, b Task) int { return int(a.Task) - int(b.Task) })

	if d.Type != nil && *d.Type == "sink" {
		if sinks := group.Sinks(ds.Dataset, name); len(sinks.Sinks) > 0 {
			d.SinkGroup = &sinks.Sinks[0]
		}
	}
	d.addCounts(ds, configs, status, all)
	return d, nil
}

// taskSet is the connector's tasks by number, made on first mention.
type taskSet struct {
	name string
	byID map[int32]*Task
}

func (s *taskSet) task(n int32) *Task {
	t := s.byID[n]
	if t == nil {
		t = &Task{ID: protocol.TaskRef{Connector: s.name, Task: n}.String(), Task: n}
		s.byID[n] = t
	}
	return t
}

// addConfig fills in what the config topic holds for the connector (its
// config, target state, task configs, last restart request) and reports
// whether the topic knows the connector.
func (d *Connector) addConfig(configs *store.ConfigsResult, tasks *taskSet) bool {
	found := false
	for i := range configs.Connectors {
		c := &configs.Connectors[i]
		if c.Name != d.Name {
			continue
		}
		found = true
		d.Configured = true
		if class, ok := c.Config["connector.class"].(string); ok {
			d.Class = &class
		}
		kind := store.ConnectorType(c.Config)
		d.Type = &kind
		d.Config = c.Config
		target := c.TargetState
		d.TargetState = &target
		d.TaskCount = c.TaskCount
		d.Consistent = c.Consistent
		d.PendingTasks = c.PendingTasks
		for _, tc := range c.Tasks {
			t := tasks.task(tc.Task)
			t.Committed = true
			t.Config = tc.Config
		}
	}
	for _, r := range configs.RestartRequests {
		if r.Connector == d.Name {
			d.Restart = &r
		}
	}
	return found
}

// addStatus fills in what the status topic holds for the connector (its
// state and its tasks', the topics it used) and reports whether the topic
// holds a status of the connector or one of its tasks.
func (d *Connector) addStatus(status *store.StatusResult, tasks *taskSet) bool {
	found := false
	for _, s := range status.Connectors {
		if s.Name != d.Name {
			continue
		}
		found = true
		state, gen := s.State, s.Generation
		d.State, d.WorkerID, d.Generation, d.Trace = &state, s.WorkerID, &gen, s.Trace
	}
	for _, s := range status.Tasks {
		if s.Connector != d.Name {
			continue
		}
		found = true
		t := tasks.task(s.Task)
		state, gen := s.State, s.Generation
		t.State, t.WorkerID, t.Generation, t.Trace = &state, s.WorkerID, &gen, s.Trace
	}
	topics := map[string]bool{}
	for _, ts := range status.Topics {
		if ts.Connector == d.Name {
			topics[ts.Topic] = true
		}
	}
	for tp := range topics {
		d.Topics = append(d.Topics, tp)
	}
	sort.Strings(d.Topics)
	return found
}

// addCounts says what was read for this view: all three topics, every
// record counted, and the records of no internal topic and input entries
// that never became records, as in every view.
func (d *Connector) addCounts(ds *views.Dataset, configs *store.ConfigsResult, status *store.StatusResult, all *store.OffsetsResult) {
	d.Records = addCounts(addCounts(configs.Records, status.Records), all.Records)
	d.Problems = append(d.Problems, configs.Problems...)
	d.Problems = append(d.Problems, status.Problems...)
	d.Problems = append(d.Problems, all.Problems...)
	extra := ds.ExtraProblems(ds.Topics.Config, ds.Topics.Status, ds.Topics.Offset)
	d.Records.Read += len(extra)
	d.Records.Problems += len(extra)
	d.Problems = append(d.Problems, extra...)
}

func addCounts(a, b inspect.RecordCounts) inspect.RecordCounts {
	return inspect.RecordCounts{Read: a.Read + b.Read, Decoded: a.Decoded + b.Decoded,
		Tombstones: a.Tombstones + b.Tombstones, Problems: a.Problems + b.Problems}
}

func knownConnectors(configs *store.ConfigsResult, status *store.StatusResult) []string {
	var names []string
	for _, c := range configs.Connectors {
		names = append(names, c.Name)
	}
	for _, s := range status.Connectors {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// pieceOwners maps each connector name and task id to the member that
// holds it now, by the members' own assignments.
func pieceOwners(members *group.MembersResult) map[string]*string {
	out := map[string]*string{}
	if members == nil {
		return out
	}
	for _, m := range members.Members {
		if m.Owned == nil {
			continue
		}
		who := WorkerName(m)
		for _, c := range m.Owned.Connectors {
			out[c] = &who
		}
		for _, t := range m.Owned.Tasks {
			out[t] = &who
		}
	}
	return out
}

// WorkerName is how a member is named in these views: the HOST:PORT of its
// REST URL, the form workers write as worker_id in the status topic (so the
// two columns compare), else its client id.
func WorkerName(m group.MemberView) string {
	if m.URL != nil && *m.URL != "" {
		u := *m.URL
		if _, rest, ok := strings.Cut(u, "://"); ok {
			u = rest
		}
		if u = strings.TrimSuffix(u, "/"); u != "" {
			return u
		}
	}
	return m.ClientID
}
