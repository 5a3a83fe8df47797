// Package scenario reads scenario files (JSON or YAML steps) and replays them
// round by round through the assignor: `plan replay`.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
)

// Scenario is a what-if scenario file, format 1 (scenario-format.md).
type Scenario struct {
	Scenario   int
	Name       string
	Protocol   string // eager | compatible | sessioned
	MaxDelayMs int64
	Steps      []Step
}

// Step kinds.
const (
	StepConnectors = "connectors"
	StepJoin       = "join"
	StepLeave      = "leave"
	StepSleep      = "sleep_ms"
	StepNewLeader  = "new_leader"
	StepRebalance  = "rebalance"
	StepSettle     = "settle"
)

// Step is one scenario step; Kind says which fields apply.
type Step struct {
	Kind               string
	Connectors         []assignor.ConnectorSpec // connectors (sorted by name)
	Workers            []string                 // join, leave
	SleepMs            int64                    // sleep_ms
	GenerationMismatch bool                     // rebalance
	MaxRounds          int                      // settle (20 when not given)
}

// maxScenarioTasks bounds one connector's task count so a typo cannot
// make the simulator allocate billions of tasks.
const maxScenarioTasks = 1_000_000

// defaultScenarioMaxDelayMs is scheduled.rebalance.max.delay.ms's default.
const defaultScenarioMaxDelayMs = 300000

// ScenarioError is a problem with a scenario file's content. Step is the
// zero-based step index, or -1 for the top level. The CLI maps it to exit 2.
type ScenarioError struct {
	Step  int
	Field string
	Msg   string
	cause error
}

// Unwrap returns the underlying decoding error, if any.
func (e *ScenarioError) Unwrap() error { return e.cause }

func (e *ScenarioError) Error() string {
	if e.Step < 0 {
		if e.Field == "" {
			return "scenario: " + e.Msg
		}
		return fmt.Sprintf("scenario field %q: %s", e.Field, e.Msg)
	}
	return fmt.Sprintf("scenario step %d (%s): %s", e.Step, e.Field, e.Msg)
}

func topErr(field, format string, args ...any) error {
	return &ScenarioError{Step: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func stepErr(i int, field, format string, args ...any) error {
	return &ScenarioError{Step: i, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ParseScenario reads a scenario from JSON or YAML (same structure) and
// validates it. Every error is a *ScenarioError.
func ParseScenario(data []byte) (*Scenario, error) { return parseScenario(data, nil) }

// ParseScenarioFrom reads a scenario that continues from a cluster's state
// (plan replay --from): its members are in the group from the start, and
// steps may name them by member id or any name ResolveWorker accepts.
func ParseScenarioFrom(data []byte, state cluster.State) (*Scenario, error) {
	members := map[string]bool{}
	namer := state.Namer()
	for _, w := range state.Workers {
		members[w.ID] = true
		for _, a := range w.Aliases {
			if id, err := namer.ResolveWorker(a); err == nil && id == w.ID {
				members[a] = true
			}
		}
	}
	return parseScenario(data, members)
}

func parseScenario(data []byte, members map[string]bool) (*Scenario, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if err := strictJSON(trimmed); err != nil {
			return nil, err
		}
		sc, err := parseScenarioJSON(trimmed, members)
		var syntax *json.SyntaxError
		if err == nil || !errors.As(err, &syntax) {
			return sc, err
		}
		// Not JSON; maybe YAML flow style ({scenario: 1, ...}).
		if js, yerr := yamlToJSON(trimmed); yerr == nil {
			return parseScenarioJSON(js, members)
		}
		return nil, &ScenarioError{Step: -1, Msg: "not valid JSON: " + syntax.Error(), cause: err}
	}
	js, err := yamlToJSON(trimmed)
	if err != nil {
		return nil, &ScenarioError{Step: -1, Msg: "not valid JSON or YAML: " + err.Error()}
	}
	return parseScenarioJSON(js, members)
}
