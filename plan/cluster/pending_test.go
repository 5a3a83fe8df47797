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

// A plan whose time 0 is an event after the read (ZeroAtMs) sees the delay
// that much nearer its end; a time 0 before the read changes nothing.
func TestPendingEndsInFromALaterTimeZero(t *testing.T) {
	const read = 1_000_000
	p := (&Pending{DelayMs: 300000, TakenAtMs: read, DepartedAtMs: read - 100_000}).From(read + 5000)
	if got, why := p.endsIn(300000); got != 195000 || !strings.Contains(why, "1m45s before time 0") {
		t.Errorf("departure 100 s before the read, time 0 5 s after it: ends in %d (%s), want 195000", got, why)
	}
	p = (&Pending{DelayMs: 30000, TakenAtMs: read}).From(read + 5000)
	if got, why := p.endsIn(300000); got != 25000 || !strings.Contains(why, "5s before time 0") {
		t.Errorf("no departure seen, time 0 5 s after the read: %d (%s), want 25000", got, why)
	}
	p = (&Pending{DelayMs: 30000, TakenAtMs: read}).From(read + 40000)
	if got, _ := p.endsIn(300000); got != 0 {
		t.Errorf("the delay ended before time 0: %d, want 0", got)
	}
	if due, why := p.RoundDue(300000); !due {
		t.Errorf("a delay that ended before time 0 is due at 0: %v %q", due, why)
	}
	p = (&Pending{DelayMs: 30000, TakenAtMs: read}).From(read - 5000)
	if got, _ := p.endsIn(300000); got != 30000 {
		t.Errorf("time 0 before the read: %d, want the 30000 told", got)
	}
	var none *Pending
	if none.From(read) != nil {
		t.Error("From on nil is not nil")
	}
}
