package commands

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/sandbox"
)

// A crashed worker's work held for the scheduled delay, read live from the
// sandbox: check balance gives one B9 naming the departed worker, its
// pieces and the delay left, and nothing per piece or per worker.
func TestCheckBalanceDuringHeldDelay(t *testing.T) {
	t.Parallel()
	cfg := sandbox.TestConfig()
	cfg.ScheduledRebalanceMaxDelay = time.Minute
	ctx, c := sandboxWith(t, cfg)
	seedSandbox(t, ctx, c)
	var victim sandbox.WorkerState
	for _, w := range c.WorkerStates() {
		if w.MemberID != w.Leader && len(w.Owned.Tasks) > 0 {
			victim = w
		}
	}
	if err := c.KillWorker(victim.Name); err != nil {
		t.Fatal(err)
	}
	// Wait for the round that holds its work: a member is told of the delay.
	for held := false; !held; {
		select {
		case <-ctx.Done():
			t.Fatal("no scheduled rebalance after the crash")
		case <-time.After(100 * time.Millisecond):
		}
		for _, w := range c.WorkerStates() {
			held = held || (w.Name != victim.Name && w.RejoinPending)
		}
	}
	var rep struct {
		Findings []struct {
			Rule, Subject, Message string
		}
	}
	out, stderr, code := run(t, "-b", c.Bootstrap(), "check", "balance", "-o", "json")
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != "B9" || rep.Findings[0].Subject != "worker "+victim.ID+" (departed)" ||
		!strings.Contains(rep.Findings[0].Message, "of the last rebalance (the delay it announced)") {
		t.Errorf("findings during the held delay: %+v", rep.Findings)
	}
}
