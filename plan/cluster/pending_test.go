package cluster

import (
	"strings"
	"testing"
)

func TestPendingEndsIn(t *testing.T) {
	p := &Pending{DelayMs: 300000, TakenAtMs: 1_000_000, DepartedAtMs: 1_000_000 - 100_000}
	if got, why := p.endsIn(300000); got != 200000 || !strings.Contains(why, "departure") {
		t.Errorf("clean departure 100 s before: ends in %d (%s), want 200000", got, why)
	}
	// The told delay bounds it: the cluster's max delay is shorter than the flag's.
	p = &Pending{DelayMs: 30000, TakenAtMs: 1_000_000, DepartedAtMs: 1_000_000 - 10_000}
	if got, _ := p.endsIn(300000); got != 30000 {
		t.Errorf("ends in %d, want the 30000 told", got)
	}
	p = &Pending{DelayMs: 30000}
	if got, why := p.endsIn(300000); got != 30000 || !strings.Contains(why, "not visible") {
		t.Errorf("no departure seen: %d (%s)", got, why)
	}
	for delay, k := range map[int64]int{40: 1, 1600: 2, 64000: 3, 300000: 0, 41: 0} {
		if got := backoffStep(delay); got != k {
			t.Errorf("backoffStep(%d) = %d, want %d", delay, got, k)
		}
	}
}
