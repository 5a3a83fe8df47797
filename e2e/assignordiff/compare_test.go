//go:build e2e

package assignordiff

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// TestFirstDifference: one piece moved between two workers in one round is
// reported with that round and worker; equal outputs give "".
func TestFirstDifference(t *testing.T) {
	file := filepath.Join(vectors.Dir(t, "assignor/public"), "ops-connector-replaced.scenario.json")
	ours, err := replayAPI(file, "3.9.2", "17")
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(ours, ours); d != "" {
		t.Fatalf("equal outputs reported as different: %s", d)
	}
	// Round 1 (generation 2): w1 is assigned refunds-2; pretend Kafka gave it refunds-4.
	i := bytes.Index(ours, []byte(`"assigned_tasks": ["refunds-2"]`))
	if i < 0 {
		t.Fatal("the vector no longer assigns refunds-2 alone in a round")
	}
	kafka := append(append(append([]byte{}, ours[:i]...), `"assigned_tasks": ["refunds-4"]`...), ours[i+len(`"assigned_tasks": ["refunds-2"]`):]...)
	d := firstDifference(kafka, ours)
	for _, want := range []string{"round 1 ", "generation 2", "worker w1", "assigned_tasks", `["refunds-4"]`, `["refunds-2"]`} {
		if !strings.Contains(d, want) {
			t.Errorf("difference %q does not mention %q", d, want)
		}
	}
}
