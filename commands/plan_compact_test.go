package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// --compact prints the compact JSON form; the table is the same with and
// without it (the compact form changes only the JSON); -o wide, which
// lists every worker of every round, refuses it.
func TestPlanCompactForm(t *testing.T) {
	t.Parallel()
	base := []string{"plan", "rolling-restart", "--restart-time", "90s", "--synthetic", "workers=8,connectors=20,tasks=2"}
	stdout, stderr, code := run(t, append(base, "--compact", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Form     string `json:"form"`
		Branches []struct {
			Cooperative struct {
				Rounds []struct {
					Totals  map[string]int    `json:"totals"`
					Workers []json.RawMessage `json:"workers"`
				} `json:"rounds"`
				Outages []struct {
					Outages int `json:"outages"`
				} `json:"outages"`
			} `json:"cooperative"`
		} `json:"branches"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	coop := got.Branches[0].Cooperative
	if got.Form != "compact" || len(coop.Rounds) == 0 || len(coop.Outages) == 0 || coop.Outages[0].Outages == 0 {
		t.Fatalf("not the compact form: %s", stdout[:min(len(stdout), 400)])
	}
	for _, r := range coop.Rounds {
		if len(r.Workers) != r.Totals["workers"] {
			t.Fatalf("a compact round lists %d workers, its totals count %d told something", len(r.Workers), r.Totals["workers"])
		}
	}
	plain, _, _ := run(t, base...)
	compact, _, _ := run(t, append(base, "--compact")...)
	if plain != compact || !strings.Contains(plain, "Rolling restart: summary") {
		t.Fatalf("--compact changed the table:\n%s\n---\n%s", plain, compact)
	}
	stdout, stderr, code = run(t, append(base, "--compact", "-o", "wide")...)
	if code != ExitUsage || stdout != "" || !strings.Contains(stderr, "--compact") {
		t.Fatalf("--compact -o wide: exit %d, stdout %q, stderr %q; want exit 2 naming --compact", code, stdout, stderr)
	}
}
