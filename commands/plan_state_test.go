package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// --state-after N prints every worker's holdings after round N instead of
// the plan: as JSON the same as the final state for a round past the end,
// as a table one line per worker; it refuses --compact and a negative
// round.
func TestPlanStateAfter(t *testing.T) {
	type worker struct {
		Worker string   `json:"worker"`
		Tasks  int      `json:"tasks"`
		Owned  []string `json:"owned_tasks"`
	}
	t.Parallel()
	base := []string{"plan", "rolling-restart", "--restart-time", "90s", "--synthetic", "workers=6,connectors=20,tasks=2"}
	var plan struct {
		Branches []struct {
			Eager struct {
				Summary struct {
					Final []worker `json:"final"`
				} `json:"summary"`
			} `json:"eager"`
		} `json:"branches"`
	}
	var state struct {
		Round    int `json:"round"`
		Branches []struct {
			Eager struct {
				Round   int      `json:"round"`
				Workers []worker `json:"workers"`
			} `json:"eager"`
		} `json:"branches"`
	}
	for _, c := range []struct {
		args []string
		into any
	}{{append(base, "-o", "json"), &plan}, {append(base, "--state-after", "999", "-o", "json"), &state}} {
		stdout, stderr, code := run(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), c.into); err != nil {
			t.Fatal(err)
		}
	}
	final, got := plan.Branches[0].Eager.Summary.Final, state.Branches[0].Eager
	if state.Round != 999 || got.Round == 0 || got.Round == 999 || len(got.Workers) != len(final) {
		t.Fatalf("state after round 999 (past the end): %+v, want the end state of %d workers", state, len(final))
	}
	for i, w := range got.Workers {
		if f := final[i]; w.Worker != f.Worker || w.Tasks != f.Tasks || strings.Join(w.Owned, ",") != strings.Join(f.Owned, ",") {
			t.Fatalf("end state %+v, the plan's final %+v", w, f)
		}
	}
	table, stderr, code := run(t, append(base, "--state-after", "2")...)
	if code != 0 || !strings.Contains(table, "every worker after round 2") || strings.Contains(table, "summary") {
		t.Fatalf("--state-after 2: exit %d, %s%s", code, table, stderr)
	}
	for _, bad := range [][]string{{"--state-after", "2", "--compact", "-o", "json"}, {"--state-after", "-1"}} {
		stdout, stderr, code := run(t, append(base, bad...)...)
		if code != ExitUsage || stdout != "" || !strings.Contains(stderr, "--state-after") {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming --state-after", bad, code, stdout, stderr)
		}
	}
}
