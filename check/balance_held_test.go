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
	for _, want := range []string{"10.0.0.3:8083 left the group", "2 pieces", "c, c-0", "within 4m58s", "10.0.0.3:8083 too, if it rejoins by then"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
}

// A worker restarted within the delay rejoins as a new member holding
// nothing: its former work is still held (Kafka does not end the delay on
// its return), so check balance gives the same one B9, naming it rejoined,
// and no B1 per worker or cluster-wide B9 without a name.
func TestHeldWorkOfRejoinedWorker(t *testing.T) {
	in := BalanceInput{Protocol: "sessioned", DelayPending: true, DelayMs: 36000,
		Workers: []WorkerLoad{
			{ID: "w1:8083", Connectors: []string{"a", "b"}, Tasks: []string{"a-0", "a-1", "b-0"}},
			{ID: "w2:8083", Connectors: []string{}, Tasks: []string{}},
		},
		Configured: []ConfiguredConnector{{Name: "a", Tasks: 2}, {Name: "b", Tasks: 1}, {Name: "c", Tasks: 2}},
		Status: []PieceStatus{
			{ID: "c", State: "RUNNING", WorkerID: "w2:8083", Generation: 4},
			{ID: "c-0", Task: true, State: "RUNNING", WorkerID: "w2:8083", Generation: 4},
			{ID: "c-1", Task: true, State: "RUNNING", WorkerID: "w2:8083", Generation: 4},
		}}
	got := Balance(in).Findings
	if len(got) != 1 {
		t.Fatalf("%d findings, want the one B9: %v", len(got), ruleIDs(got))
	}
	f := got[0]
	if f.Rule != "B9" || f.Subject != "worker w2:8083 (rejoined)" {
		t.Errorf("finding %s on %q, want B9 on worker w2:8083 (rejoined)", f.Rule, f.Subject)
	}
	if v, ok := f.Values["max_delay_ms"]; !ok || v != nil {
		t.Errorf("max_delay_ms = %v, want null: the input does not say the setting", v)
	}
	for _, want := range []string{"rejoined as a new member", "3 pieces", "c, c-0, c-1", "within 36s", "its return does not end the delay"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
}
