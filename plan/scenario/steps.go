package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/bounds"
)

// The JSON form of a scenario, step by step: each step's fields checked and
// refused with the step and field named.

func parseScenarioJSON(data []byte, seed map[string]bool) (*Scenario, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &ScenarioError{Step: -1, Msg: "not a JSON object: " + err.Error(), cause: err}
	}
	if top == nil {
		return nil, &ScenarioError{Step: -1, Msg: "empty document; want an object with \"scenario\": 1 and \"steps\""}
	}
	for k := range top {
		switch k {
		case "scenario", "name", "protocol", "max_delay_ms", "steps":
		default:
			return nil, topErr(k, "unknown field (allowed: scenario, name, protocol, max_delay_ms, steps)")
		}
	}
	sc := &Scenario{Protocol: "sessioned", MaxDelayMs: defaultScenarioMaxDelayMs}
	raw, ok := top["scenario"]
	if !ok {
		return nil, topErr("scenario", "missing; format version 1 is required")
	}
	v, err := intValue(raw)
	if err != nil || v != 1 {
		return nil, topErr("scenario", "unknown format version %s (only 1 is supported)", strings.TrimSpace(string(raw)))
	}
	sc.Scenario = 1
	if raw, ok := top["name"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &sc.Name); err != nil {
			return nil, topErr("name", "want a string")
		}
	}
	if raw, ok := top["protocol"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &sc.Protocol); err != nil {
			return nil, topErr("protocol", "want a string")
		}
		switch sc.Protocol {
		case "eager", "compatible", "sessioned":
		default:
			return nil, topErr("protocol", "unknown protocol %q (want eager, compatible or sessioned)", sc.Protocol)
		}
	}
	if raw, ok := top["max_delay_ms"]; ok && string(raw) != "null" {
		v, err := intValue(raw)
		if err != nil || v < 0 || v > math.MaxInt32 {
			return nil, topErr("max_delay_ms", "want an integer from 0 to %d, got %s", math.MaxInt32, strings.TrimSpace(string(raw)))
		}
		sc.MaxDelayMs = v
	}
	raw, ok = top["steps"]
	if !ok {
		return nil, topErr("steps", "missing")
	}
	var steps []json.RawMessage
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, topErr("steps", "want a list of steps")
	}
	if len(steps) > MaxScenarioSteps {
		return nil, topErr("steps", "%d steps; connectscope replays at most %d", len(steps), MaxScenarioSteps)
	}
	members := map[string]bool{}
	for m := range seed {
		members[m] = true
	}
	for i, rs := range steps {
		st, err := parseStep(i, rs, members)
		if err != nil {
			return nil, err
		}
		sc.Steps = append(sc.Steps, st)
	}
	return sc, nil
}

// intValue parses a JSON number that must be an integer.
func intValue(raw json.RawMessage) (int64, error) {
	return strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
}

func parseStep(i int, raw json.RawMessage, members map[string]bool) (Step, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return Step{}, stepErr(i, "step", "want an object with exactly one key")
	}
	if len(obj) != 1 {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return Step{}, stepErr(i, "step", "want exactly one key, got %d (%s)", len(obj), strings.Join(keys, ", "))
	}
	var kind string
	var body json.RawMessage
	for k, v := range obj {
		kind, body = k, v
	}
	switch kind {
	case StepConnectors:
		return parseConnectorsStep(i, kind, body)
	case StepJoin, StepLeave:
		return parseMembersStep(i, kind, body, members)
	case StepSleep:
		return parseSleepStep(i, kind, body)
	case StepNewLeader:
		return parseNewLeaderStep(i, kind, body)
	case StepRebalance:
		return parseRebalanceStep(i, kind, body)
	case StepSettle:
		return parseSettleStep(i, kind, body)
	}
	return Step{Kind: kind}, stepErr(i, kind, "unknown step (want connectors, join, leave, sleep_ms, new_leader, rebalance or settle)")
}

// parseConnectorsStep reads the configured connectors, name -> task count (sorted by name).
func parseConnectorsStep(i int, kind string, body json.RawMessage) (Step, error) {
	st := Step{Kind: kind}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return st, stepErr(i, kind, "want an object of connector name -> task count")
	}
	for name, rv := range m {
		if name == "" {
			return st, stepErr(i, kind, "empty connector name")
		}
		n, err := intValue(rv)
		if err != nil {
			return st, stepErr(i, kind, "connector %q: task count %s is not an integer", name, strings.TrimSpace(string(rv)))
		}
		if n < 0 {
			return st, stepErr(i, kind, "connector %q: negative task count %d", name, n)
		}
		if n > maxScenarioTasks {
			return st, stepErr(i, kind, "connector %q: task count %d is too large (limit %d)", name, n, maxScenarioTasks)
		}
		st.Connectors = append(st.Connectors, assignor.ConnectorSpec{Name: name, Tasks: int(n)})
	}
	slices.SortFunc(st.Connectors, func(a, b assignor.ConnectorSpec) int { return strings.Compare(a.Name, b.Name) })
	return st, nil
}

// parseMembersStep reads workers joining or leaving; members tracks who is in the group.
func parseMembersStep(i int, kind string, body json.RawMessage, members map[string]bool) (Step, error) {
	st := Step{Kind: kind}
	if err := json.Unmarshal(body, &st.Workers); err != nil {
		return st, stepErr(i, kind, "want a list of worker names")
	}
	if len(st.Workers) == 0 {
		return st, stepErr(i, kind, "empty list of workers")
	}
	seen := map[string]bool{}
	for _, w := range st.Workers {
		if w == "" {
			return st, stepErr(i, kind, "empty worker name")
		}
		if seen[w] {
			return st, stepErr(i, kind, "worker %q listed twice", w)
		}
		seen[w] = true
		if kind == StepJoin {
			if members[w] {
				return st, stepErr(i, kind, "worker %q joins but is already a member", w)
			}
			members[w] = true
		} else {
			if !members[w] {
				return st, stepErr(i, kind, "worker %q leaves without having joined", w)
			}
			delete(members, w)
		}
	}
	return st, nil
}

// parseSleepStep reads time passing, in milliseconds.
func parseSleepStep(i int, kind string, body json.RawMessage) (Step, error) {
	st := Step{Kind: kind}
	n, err := intValue(body)
	if err != nil || n < 0 || n > bounds.MaxDurationMs {
		return st, stepErr(i, kind, "want a non-negative integer of at most %d ms (a century), got %s", int64(bounds.MaxDurationMs), strings.TrimSpace(string(body)))
	}
	st.SleepMs = n
	return st, nil
}

// parseNewLeaderStep reads a leader change (no options).
func parseNewLeaderStep(i int, kind string, body json.RawMessage) (Step, error) {
	st := Step{Kind: kind}
	if err := emptyOrFields(body, nil); err != nil {
		return st, stepErr(i, kind, "%v", err)
	}
	return st, nil
}

// parseRebalanceStep reads one rebalance round, optionally with a generation mismatch.
func parseRebalanceStep(i int, kind string, body json.RawMessage) (Step, error) {
	st := Step{Kind: kind}
	var opts struct {
		GenerationMismatch *bool `json:"generation_mismatch"`
	}
	if err := emptyOrFields(body, []string{"generation_mismatch"}); err != nil {
		return st, stepErr(i, kind, "%v", err)
	}
	if err := json.Unmarshal(body, &opts); err != nil {
		return st, stepErr(i, kind, "generation_mismatch: want true or false")
	}
	st.GenerationMismatch = opts.GenerationMismatch != nil && *opts.GenerationMismatch
	return st, nil
}

// parseSettleStep reads rounds until nothing moves (max_rounds, default 20).
func parseSettleStep(i int, kind string, body json.RawMessage) (Step, error) {
	st := Step{Kind: kind}
	if err := emptyOrFields(body, []string{"max_rounds"}); err != nil {
		return st, stepErr(i, kind, "%v", err)
	}
	st.MaxRounds = 20
	var opts map[string]json.RawMessage
	_ = json.Unmarshal(body, &opts)
	if rv, ok := opts["max_rounds"]; ok && string(rv) != "null" {
		n, err := intValue(rv)
		if err != nil || n < 1 || n > 1_000_000 {
			return st, stepErr(i, kind, "max_rounds: want an integer from 1 to 1000000, got %s", strings.TrimSpace(string(rv)))
		}
		st.MaxRounds = int(n)
	}
	return st, nil
}

// emptyOrFields checks that body is null or an object with only the allowed keys.
func emptyOrFields(body json.RawMessage, allowed []string) error {
	if string(bytes.TrimSpace(body)) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return fmt.Errorf("want an object")
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return fmt.Errorf("unknown option %q (none allowed)", k)
			}
			return fmt.Errorf("unknown option %q (allowed: %s)", k, strings.Join(allowed, ", "))
		}
	}
	return nil
}
