package store

import (
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect"
)

// ConnectorsResult joins the config and status models: one line per
// connector Connect holds a config or a status for.
type ConnectorsResult struct {
	Connectors []ConnectorSummary   `json:"connectors"`
	Records    inspect.RecordCounts `json:"records"`  // config and status records together
	Problems   []inspect.Problem    `json:"problems"` // config problems, then status problems
}

// ConnectorSummary is the joined view of one connector.
type ConnectorSummary struct {
	Name        string  `json:"name"`
	Configured  bool    `json:"configured"` // Connect holds a config (false: only a status is left)
	Class       *string `json:"class"`
	Type        *string `json:"type"` // "source" or "sink"; null without a config
	TargetState *string `json:"target_state"`
	State       *string `json:"state"` // connector status; null when none is stored
	WorkerID    *string `json:"worker_id"`
	// TasksConfigured is the task count of the latest applied commit (null
	// when none); TasksCommitted the tasks Connect runs (0 while
	// inconsistent); TasksRunning/TasksFailed count the stored statuses of
	// the tasks Connect runs (all stored task statuses for a connector
	// without config); TasksStale counts statuses left by tasks Connect no
	// longer runs (a stopped or shrunk connector), which say nothing now.
	TasksConfigured *int32 `json:"tasks_configured"`
	TasksCommitted  int    `json:"tasks_committed"`
	TasksRunning    int    `json:"tasks_running"`
	TasksFailed     int    `json:"tasks_failed"`
	TasksStale      int    `json:"tasks_stale"`
	Consistent      bool   `json:"consistent"`
}

// Connectors joins configs and status (either may be nil) by connector name.
func Connectors(configs *ConfigsResult, status *StatusResult) *ConnectorsResult {
	res := &ConnectorsResult{Problems: []inspect.Problem{}}
	byName := map[string]*ConnectorSummary{}
	// current holds the task ids Connect runs, per configured connector.
	current := map[string]map[string]bool{}
	get := func(name string) *ConnectorSummary {
		s := byName[name]
		if s == nil {
			s = &ConnectorSummary{Name: name, Consistent: true}
			byName[name] = s
		}
		return s
	}
	if configs != nil {
		for i := range configs.Connectors {
			c := &configs.Connectors[i]
			s := get(c.Name)
			s.Configured = true
			if class, ok := c.Config["connector.class"].(string); ok {
				s.Class = &class
			}
			kind := ConnectorType(c.Config)
			s.Type = &kind
			target := c.TargetState
			s.TargetState = &target
			s.TasksConfigured = c.TaskCount
			s.TasksCommitted = len(c.Tasks)
			s.Consistent = c.Consistent
			ids := make(map[string]bool, len(c.Tasks))
			for _, t := range c.Tasks {
				ids[t.ID] = true
			}
			current[c.Name] = ids
		}
		res.Records = addCounts(res.Records, configs.Records)
		res.Problems = append(res.Problems, configs.Problems...)
	}
	if status != nil {
		for i := range status.Connectors {
			c := &status.Connectors[i]
			s := get(c.Name)
			state := c.State
			s.State = &state
			s.WorkerID = c.WorkerID
		}
		for _, t := range status.Tasks {
			s := get(t.Connector)
			if ids, configured := current[t.Connector]; configured && !ids[t.ID] {
				s.TasksStale++
				continue
			}
			switch t.State {
			case "RUNNING":
				s.TasksRunning++
			case "FAILED":
				s.TasksFailed++
			}
		}
		res.Records = addCounts(res.Records, status.Records)
		res.Problems = append(res.Problems, status.Problems...)
	}
	res.Connectors = make([]ConnectorSummary, 0, len(byName))
	for _, s := range byName {
		res.Connectors = append(res.Connectors, *s)
	}
	sort.Slice(res.Connectors, func(i, j int) bool { return res.Connectors[i].Name < res.Connectors[j].Name })
	return res
}

func addCounts(a, b inspect.RecordCounts) inspect.RecordCounts {
	return inspect.RecordCounts{Read: a.Read + b.Read, Decoded: a.Decoded + b.Decoded,
		Tombstones: a.Tombstones + b.Tombstones, Problems: a.Problems + b.Problems}
}

// ConnectorType guesses "source" or "sink" from a connector config. The
// class's simple name decides when it says Sink or Source (but not both);
// otherwise a connector with `topics` or `topics.regex` is a sink, since
// Connect requires one of them for sinks and sources have no use for them.
func ConnectorType(cfg map[string]any) string {
	class, _ := cfg["connector.class"].(string)
	simple := class[strings.LastIndexByte(class, '.')+1:]
	sink, source := strings.Contains(simple, "Sink"), strings.Contains(simple, "Source")
	switch {
	case sink && !source:
		return "sink"
	case source && !sink:
		return "source"
	}
	_, topics := cfg["topics"]
	_, regex := cfg["topics.regex"]
	if topics || regex {
		return "sink"
	}
	return "source"
}
