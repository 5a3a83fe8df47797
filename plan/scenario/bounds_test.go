package scenario

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/plan/bounds"
)

// scenarioWith builds a format-1 scenario from raw JSON steps.
func scenarioWith(steps ...string) []byte {
	return []byte(`{"scenario": 1, "steps": [` + strings.Join(steps, ",") + `]}`)
}

func repeatStep(step string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = step
	}
	return out
}

func workerList(n int) string {
	var b strings.Builder
	b.WriteString(`{"join": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"w%d"`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// Hostile scenarios are refused with a ScenarioError naming the step and
// the bound, before they take memory or time (exit 2 in the CLI).
func TestScenarioBoundsRefuse(t *testing.T) {
	maxInt := fmt.Sprint(int64(math.MaxInt64))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"too many steps", scenarioWith(repeatStep(`{"new_leader": {}}`, MaxScenarioSteps+1)...), "at most 100000"},
		{"sleep of 2^63-1", scenarioWith(`{"join": ["a"]}`, `{"sleep_ms": `+maxInt+`}`), "a century"},
		{"two sleeps of 2^63-1", scenarioWith(`{"sleep_ms": `+maxInt+`}`, `{"sleep_ms": `+maxInt+`}`), "a century"},
		{"two century sleeps overflow the clock", scenarioWith(`{"sleep_ms": 3153600000000}`, `{"sleep_ms": 3153600000000}`), "clock would pass a century"},
		{"too many workers", scenarioWith(workerList(bounds.MaxWorkers + 1)), "at most 100000 workers"},
		{"too many pieces", scenarioWith(`{"connectors": {"a": 1000000, "b": 1000000}}`), "more than 2000000"},
		{"100k rounds of a busy cluster", scenarioWith(append([]string{`{"connectors": {"a": 90, "b": 9}}`, workerList(10)}, repeatStep(`{"rebalance": {}}`, 99000)...)...), "~1 GiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := ParseScenario(tc.data)
			if err == nil {
				_, err = Replay(sc, ReplayOptions{})
			}
			var se *ScenarioError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *ScenarioError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}
