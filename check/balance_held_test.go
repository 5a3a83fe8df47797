package check

import (
	"strings"
	"testing"
)

// While a crashed worker's work is held for the scheduled delay, check
// balance gives one finding naming the departed worker, its pieces and the
// time they come back (B9), instead of a B7 per piece and a B1 per worker
// (before, B9 did not fire at all while a delay was pending).
func TestHeldWorkIsOneFinding(t *testing.T) {
	var c ruleCase
	for _, rc := range loadRuleCases(t, "B9") {
		if rc.name == "fire-held" {
			c = rc
		}
	}
	got := runCase(t, c)
	if len(got) != 1 {
		t.Fatalf("%d findings, want the one B9: %v", len(got), ruleIDs(got))
	}
	f := got[0]
	if f.Rule != "B9" || f.Subject != "worker 10.0.0.3:8083 (departed)" {
		t.Errorf("finding %s on %q", f.Rule, f.Subject)
	}
	for _, want := range []string{"10.0.0.3:8083 left the group", "2 pieces", "c, c-0", "within 4m58s", "sooner if 10.0.0.3:8083 rejoins"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
}
