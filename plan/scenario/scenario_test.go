package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/assignor"
)

func TestParseScenarioErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		step      int
		field     string
		msg       string
	}{
		{"unknown version", `{"scenario": 2, "steps": []}`, -1, "scenario", "unknown format version 2"},
		{"missing version", `{"steps": []}`, -1, "scenario", "missing"},
		{"unknown protocol", `{"scenario": 1, "protocol": "cooperative", "steps": []}`, -1, "protocol", `unknown protocol "cooperative"`},
		{"unknown top field", `{"scenario": 1, "max_delay": 5, "steps": []}`, -1, "max_delay", "unknown field"},
		{"negative delay", `{"scenario": 1, "max_delay_ms": -1, "steps": []}`, -1, "max_delay_ms", "want an integer"},
		{"unknown step", `{"scenario": 1, "steps": [{"join": ["a"]}, {"restart": ["a"]}]}`, 1, "restart", "unknown step"},
		{"two keys", `{"scenario": 1, "steps": [{"join": ["a"], "leave": ["a"]}]}`, 0, "step", "exactly one key"},
		{"leave without join", `{"scenario": 1, "steps": [{"join": ["a"]}, {"rebalance": {}}, {"leave": ["b"]}]}`, 2, "leave", `worker "b" leaves without having joined`},
		{"leave twice", `{"scenario": 1, "steps": [{"join": ["a"]}, {"leave": ["a"]}, {"leave": ["a"]}]}`, 2, "leave", "without having joined"},
		{"join twice", `{"scenario": 1, "steps": [{"join": ["a"]}, {"join": ["a"]}]}`, 1, "join", "already a member"},
		{"negative tasks", `{"scenario": 1, "steps": [{"connectors": {"c": -1}}]}`, 0, "connectors", "negative task count -1"},
		{"fractional tasks", `{"scenario": 1, "steps": [{"connectors": {"c": 1.5}}]}`, 0, "connectors", "not an integer"},
		{"negative sleep", `{"scenario": 1, "steps": [{"sleep_ms": -5}]}`, 0, "sleep_ms", "non-negative"},
		{"bad rebalance option", `{"scenario": 1, "steps": [{"rebalance": {"mismatch": true}}]}`, 0, "rebalance", `unknown option "mismatch"`},
		{"bad max_rounds", `{"scenario": 1, "steps": [{"settle": {"max_rounds": 0}}]}`, 0, "settle", "max_rounds"},
		{"not json", `{"scenario": 1,`, -1, "", "not valid JSON"},
		{"yaml flow style ok but bad version", `{scenario: 3, steps: []}`, -1, "scenario", "unknown format version 3"},
		{"not an object", `[1, 2]`, -1, "", "not a JSON object"},
		{"yaml unknown step", "scenario: 1\nsteps:\n  - join: [a]\n  - explode: {}\n", 1, "explode", "unknown step"},
		// What encoding/json would pass over silently: the last key wins,
		// a second value is dropped.
		{"top key twice", `{"scenario": 1, "protocol": "sessioned", "steps": [], "protocol": "eager"}`, -1, "", `the top level: key "protocol" given twice`},
		{"connector twice", `{"scenario": 1, "steps": [{"join": ["a"]}, {"connectors": {"orders": 4, "orders": 8}}]}`, -1, "", `steps[1].connectors: key "orders" given twice`},
		{"second object", `{"scenario": 1, "steps": []} {"scenario": 1, "steps": [{"join": ["a"]}]}`, -1, "", "more after the scenario's object"},
		{"second yaml document", "scenario: 1\nsteps: []\n---\nscenario: 1\nsteps:\n  - join: [a]\n", -1, "", "line 4: a second YAML document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseScenario([]byte(c.doc))
			var se *ScenarioError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want *ScenarioError", err, err)
			}
			if se.Step != c.step || se.Field != c.field || !strings.Contains(se.Error(), c.msg) {
				t.Errorf("got step %d field %q: %v; want step %d field %q containing %q", se.Step, se.Field, se, c.step, c.field, c.msg)
			}
			if c.step >= 0 && !strings.Contains(se.Error(), "step "+string(rune('0'+c.step))) {
				t.Errorf("message %q does not name the step index", se.Error())
			}
		})
	}
}

func TestParseScenarioDefaults(t *testing.T) {
	sc, err := ParseScenario([]byte(`{"scenario": 1, "steps": [{"connectors": {"b": 2, "a": 0}}, {"join": ["w1", "w2"]}, {"settle": {}}, {"rebalance": {"generation_mismatch": true}}, {"new_leader": {}}, {"sleep_ms": 10}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Protocol != "sessioned" || sc.MaxDelayMs != 300000 || sc.Name != "" {
		t.Errorf("defaults: protocol %q max delay %d name %q", sc.Protocol, sc.MaxDelayMs, sc.Name)
	}
	want := []Step{
		{Kind: StepConnectors, Connectors: []assignor.ConnectorSpec{{Name: "a", Tasks: 0}, {Name: "b", Tasks: 2}}},
		{Kind: StepJoin, Workers: []string{"w1", "w2"}},
		{Kind: StepSettle, MaxRounds: 20},
		{Kind: StepRebalance, GenerationMismatch: true},
		{Kind: StepNewLeader},
		{Kind: StepSleep, SleepMs: 10},
	}
	if !reflect.DeepEqual(sc.Steps, want) {
		t.Errorf("steps %+v\nwant %+v", sc.Steps, want)
	}
}

// A YAML file with the same structure replays exactly like its JSON twin.
func TestParseScenarioYAML(t *testing.T) {
	js := `{"scenario": 1, "name": "y", "protocol": "compatible", "max_delay_ms": 1000,
	  "steps": [{"connectors": {"orders": 4, "customers": 3}}, {"join": ["w1", "w2"]}, {"rebalance": {}},
	  {"leave": ["w2"]}, {"settle": {"max_rounds": 5}}]}`
	ym := `scenario: 1
name: y
protocol: compatible
max_delay_ms: 1000
steps:
  - connectors: {orders: 4, customers: 3}
  - join: [w1, w2]
  - rebalance: {}
  - leave: [w2]
  - settle: {max_rounds: 5}
`
	a, err := ParseScenario([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseScenario([]byte(ym))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("JSON %+v\nYAML %+v", a, b)
	}
	ra, _ := Replay(a, ReplayOptions{})
	rb, _ := Replay(b, ReplayOptions{})
	var ba, bb bytes.Buffer
	if err := ra.WriteJSON(&ba); err != nil {
		t.Fatal(err)
	}
	if err := rb.WriteJSON(&bb); err != nil {
		t.Fatal(err)
	}
	if ba.String() != bb.String() || len(ra.Rounds) != 3 { // r1, then settle: delay, reassignment
		t.Errorf("replays differ or wrong round count (%d)", len(ra.Rounds))
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, vc := range loadAssignorVectors(f) {
		f.Add(vc.scenario)
	}
	f.Add([]byte("scenario: 1\nsteps:\n  - join: [a]\n  - settle: {}\n"))
	// Hostile inputs of the bounds tests: clock overflow, absurd sizes.
	f.Add(scenarioWith(`{"sleep_ms": 9223372036854775807}`, `{"sleep_ms": 9223372036854775807}`))
	f.Add(scenarioWith(`{"sleep_ms": 3153600000000}`, `{"sleep_ms": 3153600000000}`, `{"join": ["a"]}`, `{"settle": {}}`))
	f.Add(scenarioWith(`{"connectors": {"a": 1000000, "b": 1000000}}`))
	f.Add(scenarioWith(`{"join": ["a", "b"]}`, `{"settle": {"max_rounds": 1000000}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseScenario(data)
		if err != nil {
			var se *ScenarioError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *ScenarioError", err)
			}
			return
		}
		tasks, rounds := 0, 0
		for _, st := range sc.Steps {
			for _, c := range st.Connectors {
				tasks += c.Tasks
			}
			rounds += st.MaxRounds
		}
		if tasks > 5000 || rounds > 500 {
			return // valid but too big to replay quickly
		}
		res, err := Replay(sc, ReplayOptions{})
		var se *ScenarioError
		if errors.As(err, &se) {
			return // beyond the bounds (a clock past a century): refused, named
		}
		if err != nil {
			t.Fatalf("valid scenario failed to replay: %v", err)
		}
		if err := res.WriteJSON(&bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		_ = res.Tables()
	})
}

func TestJSONStringsEscaped(t *testing.T) {
	sc, err := ParseScenario([]byte(`{"scenario": 1, "name": "q\"<é>", "steps": [{"connectors": {"a\"b<😀>": 1}}, {"join": ["w\\1"]}, {"rebalance": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(sc, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Name  string
		Final map[string]struct{ Connectors, Tasks []string }
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("WriteJSON produced invalid JSON: %v\n%s", err, buf.String())
	}
	w := back.Final[`w\1`]
	if back.Name != `q"<é>` || len(w.Connectors) != 1 || w.Connectors[0] != `a"b<😀>` || w.Tasks[0] != `a"b<😀>-0` {
		t.Errorf("round trip: %+v", back)
	}
}
