package assignor

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// The shared vectors are scenario files (scenario-format.md). The scenario
// parser lives in package plan, above this one, so the tests here read the
// few fields they need themselves; the vectors are valid by construction and
// plan's own tests cover the parser's validation.
type vectorStep struct {
	kind       string
	connectors []ConnectorSpec
	workers    []string
	sleepMs    int64
	mismatch   bool
	maxRounds  int
}

type vectorScenario struct {
	name       string
	protocol   string
	maxDelayMs int64
	steps      []vectorStep
}

// loadAssignorVectors fails the test when the shared vectors are missing.
func loadAssignorVectors(t testing.TB) []vectorScenario {
	t.Helper()
	var out []vectorScenario
	for _, f := range vectors.Read(t, "assignor/public", "*.scenario.json") {
		sc, err := decodeVector(f.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		sc.name = f.Name
		out = append(out, sc)
	}
	return out
}

func decodeVector(data []byte) (vectorScenario, error) {
	var top struct {
		Protocol   *string                      `json:"protocol"`
		MaxDelayMs *int64                       `json:"max_delay_ms"`
		Steps      []map[string]json.RawMessage `json:"steps"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return vectorScenario{}, err
	}
	sc := vectorScenario{protocol: "sessioned", maxDelayMs: 300000}
	if top.Protocol != nil {
		sc.protocol = *top.Protocol
	}
	if top.MaxDelayMs != nil {
		sc.maxDelayMs = *top.MaxDelayMs
	}
	for _, obj := range top.Steps {
		for kind, body := range obj {
			st := vectorStep{kind: kind, maxRounds: 20}
			var err error
			switch kind {
			case "connectors":
				var m map[string]int
				err = json.Unmarshal(body, &m)
				for name, n := range m {
					st.connectors = append(st.connectors, ConnectorSpec{Name: name, Tasks: n})
				}
				slices.SortFunc(st.connectors, func(a, b ConnectorSpec) int { return strings.Compare(a.Name, b.Name) })
			case "join", "leave":
				err = json.Unmarshal(body, &st.workers)
			case "sleep_ms":
				err = json.Unmarshal(body, &st.sleepMs)
			case "rebalance":
				var o struct {
					GenerationMismatch bool `json:"generation_mismatch"`
				}
				err = json.Unmarshal(body, &o)
				st.mismatch = o.GenerationMismatch
			case "settle":
				var o struct {
					MaxRounds *int `json:"max_rounds"`
				}
				err = json.Unmarshal(body, &o)
				if o.MaxRounds != nil {
					st.maxRounds = *o.MaxRounds
				}
			}
			if err != nil {
				return sc, err
			}
			sc.steps = append(sc.steps, st)
		}
	}
	return sc, nil
}
