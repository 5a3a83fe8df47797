// Package scenario reads scenario files (JSON or YAML steps) and replays them
// round by round through the assignor: `plan replay`.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

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
	for _, w := range state.Workers {
		members[w.ID] = true
		for _, a := range w.Aliases {
			if id, err := state.ResolveWorker(a); err == nil && id == w.ID {
				members[a] = true
			}
		}
	}
	return parseScenario(data, members)
}

func parseScenario(data []byte, members map[string]bool) (*Scenario, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
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

// yamlToJSON reads a YAML scenario as the JSON it stands for. The document
// is parsed into yaml.v3's node tree and converted here rather than
// decoded by yaml.v3, whose duplicate-key check compares every key of a
// mapping with every other: a 60,000-connector step took seconds that way,
// and grows with the square of its size. Here a mapping costs one map
// insertion per key.
func yamlToJSON(data []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	c := yamlConverter{budget: 2*countYAMLNodes(&doc) + 1000}
	v, err := c.value(&doc)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("YAML content cannot be represented as JSON: %w", err)
	}
	return js, nil
}

// yamlConverter turns a YAML node tree into JSON-friendly values. Aliases
// are followed, within budget: a document of aliases of aliases (a "billion
// laughs") would otherwise expand without end.
type yamlConverter struct{ budget, depth int }

// maxYAMLDepth bounds nesting, which only an alias that contains itself
// makes deep.
const maxYAMLDepth = 1000

func countYAMLNodes(n *yaml.Node) int {
	total := 1
	for _, c := range n.Content {
		total += countYAMLNodes(c)
	}
	return total
}

func (c *yamlConverter) value(n *yaml.Node) (any, error) {
	if err := c.enter(n); err != nil {
		return nil, err
	}
	defer func() { c.depth-- }()
	switch n.Kind {
	case 0: // an empty document
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		return c.value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		seen := make(map[string]int, len(n.Content)/2)
		if err := c.mapping(n, out, seen, false, isStringMapping(n)); err != nil {
			return nil, err
		}
		return out, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// isStringMapping says whether yaml.v3 would decode n as a map with string
// keys: its own keys are all strings (or merges). Every key of such a
// mapping, merged ones too, is then named by its text (007 stays 007),
// where other mappings name a key by its value (007 is 7).
func isStringMapping(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if tag := n.Content[i].ShortTag(); tag != "!!str" && tag != "!!merge" {
			return false
		}
	}
	return true
}

// keyName names a mapping key as yaml.v3 does; skip reports a null key,
// which yaml.v3 leaves out of a string-keyed map.
func (c *yamlConverter) keyName(k *yaml.Node, stringKeys bool) (name string, skip bool, err error) {
	if !stringKeys {
		key, err := c.value(k)
		return fmt.Sprint(key), false, err
	}
	scalar := k
	if scalar.Kind == yaml.AliasNode && scalar.Alias != nil {
		scalar = scalar.Alias
	}
	if scalar.Kind != yaml.ScalarNode {
		return "", false, fmt.Errorf("line %d: a mapping key that is not text where the mapping's other keys are", k.Line)
	}
	if scalar.ShortTag() == "!!null" {
		return "", true, nil
	}
	err = scalar.Decode(&name)
	return name, false, err
}

// mapping adds n's keys to out. Merged keys (<<) give way to the mapping's
// own; a key twice in one mapping is an error, as yaml.v3 makes it.
// stringKeys says how the outermost mapping names its keys (isStringMapping).
func (c *yamlConverter) mapping(n *yaml.Node, out map[string]any, seen map[string]int, merged, stringKeys bool) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			if err := c.merge(v, out, seen, stringKeys); err != nil {
				return err
			}
			continue
		}
		name, skip, err := c.keyName(k, stringKeys)
		if err != nil {
			return err
		}
		id := name // yaml.v3 calls keys the same when their text is: 0 and 0.0 differ
		if k.Kind == yaml.ScalarNode {
			id = k.Value
		}
		if line, dup := seen[id]; dup {
			if merged {
				continue
			}
			if line > 0 {
				return fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, name, line)
			}
		}
		if merged {
			seen[id] = 0 // a mapping's own key may replace it
		} else {
			seen[id] = k.Line
		}
		if skip {
			continue
		}
		val, err := c.value(v)
		if err != nil {
			return err
		}
		out[name] = val
	}
	return nil
}

// enter counts a node against the budget and the depth; the caller
// decrements depth when done.
func (c *yamlConverter) enter(n *yaml.Node) error {
	c.budget--
	c.depth++
	if c.budget < 0 || c.depth > maxYAMLDepth {
		return fmt.Errorf("line %d: aliases expand the document too far", n.Line)
	}
	return nil
}

func (c *yamlConverter) merge(v *yaml.Node, out map[string]any, seen map[string]int, stringKeys bool) error {
	if err := c.enter(v); err != nil {
		return err
	}
	defer func() { c.depth-- }()
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode:
		return c.mapping(v, out, seen, true, stringKeys)
	case yaml.SequenceNode:
		for _, e := range v.Content {
			if err := c.merge(e, out, seen, stringKeys); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("line %d: << merges a mapping or a list of mappings", v.Line)
}

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
	if err != nil || n < 0 || n > cluster.MaxDurationMs {
		return st, stepErr(i, kind, "want a non-negative integer of at most %d ms (a century), got %s", int64(cluster.MaxDurationMs), strings.TrimSpace(string(body)))
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
