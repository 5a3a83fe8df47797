package scenariogen_test

import (
	"testing"

	"github.com/connectscope/connectscope/plan/internal/scenariogen"
	"github.com/connectscope/connectscope/plan/scenario"
)

func TestScaleOutParsesAndReplays(t *testing.T) {
	sc, err := scenario.ParseScenario(scenariogen.ScaleOut(5, 7, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Steps) != 5 || len(sc.Steps[0].Connectors) != 7 || len(sc.Steps[1].Workers) != 5 {
		t.Fatalf("steps %+v", sc.Steps)
	}
	res, err := scenario.Replay(sc, scenario.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	owned := 0
	for _, o := range res.Final {
		owned += len(o.Connectors) + len(o.Tasks)
	}
	if len(res.Final) != 6 || owned != 7+21 {
		t.Errorf("final: %d workers own %d pieces, want 6 and 28", len(res.Final), owned)
	}
}
