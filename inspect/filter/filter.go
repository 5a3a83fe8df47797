// Package filter narrows the views that list connectors as operators ask:
// by name (a regular expression, as kcctl's -e), by type (source or sink)
// and by state (inspect status --state FAILED). The records are all read
// and counted still; only the listed connectors, tasks and offsets narrow.
package filter

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// Spec is what to keep; the zero Spec keeps everything.
type Spec struct {
	Name   *regexp.Regexp // connector names it matches (anywhere in the name, as grep)
	Type   string         // "source", "sink" or "" for both
	States []string       // states kept (upper case); none keeps all
	// Types is each connector's type, from its config (Types(configs)).
	Types map[string]string
}

// Parse reads the filter flags' values: pattern a regular expression,
// typ source or sink, states a comma-separated list of Connect states.
func Parse(pattern, typ string, states []string) (Spec, error) {
	var s Spec
	if pattern != "" {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return s, field.Errorf("Pattern", " %q is not a regular expression: %v", pattern, err)
		}
		s.Name = re
	}
	switch t := strings.ToLower(strings.TrimSpace(typ)); t {
	case "", "source", "sink":
		s.Type = t
	default:
		return s, field.Errorf("Type", " %q: want source or sink", typ)
	}
	known := []string{"RUNNING", "FAILED", "PAUSED", "STOPPED", "UNASSIGNED", "RESTARTING", "DESTROYED", "STARTED"}
	for _, list := range states {
		for _, st := range strings.Split(list, ",") {
			st = strings.ToUpper(strings.TrimSpace(st))
			if st == "" {
				continue
			}
			if !slices.Contains(known, st) {
				return s, field.Errorf("State", " %q: want one of %s", st, strings.Join(known, ", "))
			}
			s.States = append(s.States, st)
		}
	}
	return s, nil
}

// Active says whether the spec narrows anything.
func (s Spec) Active() bool { return s.Name != nil || s.Type != "" || len(s.States) > 0 }

// Types is each configured connector's type (source or sink).
func Types(configs *store.ConfigsResult) map[string]string {
	out := map[string]string{}
	for _, c := range configs.Connectors {
		out[c.Name] = store.ConnectorType(c.Config)
	}
	return out
}

// keeps says whether connector name passes the name and type filters.
func (s Spec) keeps(name string) bool {
	if s.Name != nil && !s.Name.MatchString(name) {
		return false
	}
	return s.Type == "" || s.Types[name] == s.Type
}

func (s Spec) state(st string) bool { return len(s.States) == 0 || slices.Contains(s.States, st) }

// Connectors narrows `inspect connectors` (state: the connector's status).
func (s Spec) Connectors(r *store.ConnectorsResult) {
	r.Connectors = slices.DeleteFunc(r.Connectors, func(c store.ConnectorSummary) bool {
		st := ""
		if c.State != nil {
			st = *c.State
		}
		return !s.keeps(c.Name) || !s.state(st)
	})
}

// Status narrows `inspect status`: connectors and tasks each by their own
// state, active topics by connector.
func (s Spec) Status(r *store.StatusResult) {
	r.Connectors = slices.DeleteFunc(r.Connectors, func(c store.ConnectorStatus) bool { return !s.keeps(c.Name) || !s.state(c.State) })
	r.Tasks = slices.DeleteFunc(r.Tasks, func(t store.TaskStatus) bool { return !s.keeps(t.Connector) || !s.state(t.State) })
	listed := map[string]bool{}
	for _, c := range r.Connectors {
		listed[c.Name] = true
	}
	for _, t := range r.Tasks {
		listed[t.Connector] = true
	}
	// Topics have no state: with a state asked for, those of the connectors listed.
	r.Topics = slices.DeleteFunc(r.Topics, func(t store.TopicStatus) bool {
		return !s.keeps(t.Connector) || len(s.States) > 0 && !listed[t.Connector]
	})
}

// Configs narrows `inspect configs` (state: the target state).
func (s Spec) Configs(r *store.ConfigsResult) {
	r.Connectors = slices.DeleteFunc(r.Connectors, func(c store.ConnectorConfig) bool { return !s.keeps(c.Name) || !s.state(c.TargetState) })
}

// Offsets narrows `inspect offsets` by connector.
func (s Spec) Offsets(r *store.OffsetsResult) {
	r.Offsets = slices.DeleteFunc(r.Offsets, func(o store.SourceOffset) bool { return !s.keeps(o.Connector) })
}

// Sinks narrows `inspect sinks` by connector.
func (s Spec) Sinks(r *group.SinksResult) {
	r.Sinks = slices.DeleteFunc(r.Sinks, func(v group.SinkView) bool { return !s.keeps(v.Connector) })
}

// String says what the spec keeps, for a note.
func (s Spec) String() string {
	var parts []string
	if s.Name != nil {
		parts = append(parts, fmt.Sprintf("names matching %s", s.Name))
	}
	if s.Type != "" {
		parts = append(parts, s.Type+" connectors")
	}
	if len(s.States) > 0 {
		parts = append(parts, "state "+strings.Join(s.States, " or "))
	}
	return strings.Join(parts, ", ")
}
