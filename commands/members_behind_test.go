package commands

import (
	"encoding/json"
	"testing"

	"github.com/connectscope/connectscope/sandbox"
)

// Workers report their config offset when they join. Records that do not
// make the group rebalance (the session key the leader writes after a round,
// a pause) come after it, so a healthy cluster's members trail the topic's
// end; inspect members must not call them behind.
func TestLiveMembersNotBehindAfterQuietRecords(t *testing.T) {
	t.Parallel()
	ctx, c := testSandbox(t)
	if err := c.AddConnector(ctx, sandbox.ConnectorSpec{Name: "orders", Kind: sandbox.KindSource, Tasks: 2}); err != nil {
		t.Fatal(err)
	}
	if err := c.AddWorkers(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.PauseConnector(ctx, "orders"); err != nil { // a target state: no rebalance
		t.Fatal(err)
	}
	out, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "members", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Members []struct {
			MemberID     string `json:"member_id"`
			ConfigLag    *int64 `json:"config_lag"`
			ConfigBehind *bool  `json:"config_behind"`
		} `json:"members"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Members) != 2 {
		t.Fatalf("members: %s", out)
	}
	for _, m := range res.Members {
		if m.ConfigLag == nil || *m.ConfigLag < 1 {
			t.Errorf("%s: config_lag %v, want at least the pause record", m.MemberID, m.ConfigLag)
		}
		if m.ConfigBehind == nil || *m.ConfigBehind {
			t.Errorf("%s: config_behind %s, want false: it missed only records that do not rebalance", m.MemberID, out)
		}
	}
}
