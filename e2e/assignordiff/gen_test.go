//go:build e2e

package assignordiff

import (
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	planscenario "github.com/connectscope/connectscope/plan/scenario"
)

// TestGeneratedScenariosAreValid: every generated scenario parses and
// replays, the set covers every protocol and step kind, and some are wide
// enough for a member to hold 12 or more connectors.
func TestGeneratedScenariosAreValid(t *testing.T) {
	kinds := map[string]int{}
	protocols := map[string]int{}
	wide := 0
	for name, b := range generate(1, 300) {
		sc, err := planscenario.ParseScenario(b)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		protocols[sc.Protocol]++
		for _, st := range sc.Steps {
			kinds[st.Kind]++
			if st.Kind == planscenario.StepConnectors && len(st.Connectors) >= 24 {
				wide++
			}
		}
		if _, err := planscenario.Replay(sc, planscenario.ReplayOptions{KafkaVersion: kafkaversion.New(3, 9, 2)}); err != nil {
			t.Fatalf("%s: replay: %v", name, err)
		}
	}
	for _, p := range []string{"eager", "compatible", "sessioned"} {
		if protocols[p] == 0 {
			t.Errorf("no %s scenario among 300", p)
		}
	}
	for _, k := range []string{planscenario.StepConnectors, planscenario.StepJoin, planscenario.StepLeave, planscenario.StepSleep, planscenario.StepNewLeader, planscenario.StepRebalance, planscenario.StepSettle} {
		if kinds[k] == 0 {
			t.Errorf("no %s step among 300 scenarios", k)
		}
	}
	if wide == 0 {
		t.Error("no scenario with 24 or more connectors among 300")
	}
}
