package realbroker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// testMemberOrder joins probe members into one group with raw JoinGroup
// requests and checks that connectscope keeps the broker's member order,
// in the live description and in a snapshot. The leader's JoinGroup list
// is in that order, and plans need it: it breaks ties between member ids
// that share a bucket of the Connect leader's HashMap (assignor.md §6.2).
func testMemberOrder(t *testing.T, c *cluster) {
	const group, members = "member-order-probe", 8
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	clients := make([]*kgo.Client, members)
	ids := make([]string, members)
	for i := range clients {
		clients[i] = c.b.Client(t, kgo.ClientID(fmt.Sprintf("probe-%d", i)))
		// The first join only hands out the member id (KIP-394).
		resp, err := probeJoin(ctx, clients[i], group, "")
		if err != nil {
			t.Fatal(err)
		}
		if resp.ErrorCode != kerr.MemberIDRequired.Code {
			t.Fatalf("first JoinGroup of probe-%d: error %d, want MEMBER_ID_REQUIRED", i, resp.ErrorCode)
		}
		ids[i] = resp.MemberID
	}
	joined := make([]*kmsg.JoinGroupResponse, members)
	errs := make([]error, members)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			joined[i], errs[i] = probeJoin(ctx, clients[i], group, ids[i])
		}()
	}
	wg.Wait()
	var leaderList []string
	for i, resp := range joined {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if resp.ErrorCode != 0 {
			t.Fatalf("JoinGroup of probe-%d: %v", i, kerr.ErrorForCode(resp.ErrorCode))
		}
		if resp.LeaderID == resp.MemberID {
			for _, m := range resp.Members {
				leaderList = append(leaderList, m.MemberID)
			}
		}
	}
	if len(leaderList) != members {
		t.Fatalf("the leader's JoinGroup list has %d members, want %d", len(leaderList), members)
	}
	defer probeLeave(clients[0], group, ids)
	if slices.IsSorted(leaderList) {
		t.Fatalf("the broker listed the %d members in sorted order by chance; the test cannot tell sorting from keeping", members)
	}

	desc, err := live.DescribeGroup(ctx, clients[0], group)
	if err != nil {
		t.Fatal(err)
	}
	var described []string
	for _, m := range desc.Members {
		described = append(described, m.MemberID)
	}
	if !slices.Equal(described, leaderList) {
		t.Errorf("the description lists members as\n  %s\nthe leader's JoinGroup list was\n  %s", strings.Join(described, "\n  "), strings.Join(leaderList, "\n  "))
	}

	snap := filepath.Join(t.TempDir(), "probe.snapshot.json")
	if _, stderr, code := c.live("--group", group, "snapshot", "-o", snap); code > 1 {
		t.Fatalf("snapshot of %s: exit %d: %s", group, code, stderr)
	}
	f, err := os.Open(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := source.ReadSnapshot(f)
	if err != nil {
		t.Fatal(err)
	}
	var snapped []string
	if d.Group != nil {
		for _, m := range d.Group.Members {
			snapped = append(snapped, m.MemberID)
		}
	}
	if !slices.Equal(snapped, leaderList) {
		t.Errorf("the snapshot lists members as\n  %s\nthe leader's JoinGroup list was\n  %s", strings.Join(snapped, "\n  "), strings.Join(leaderList, "\n  "))
	}
}

// probeJoin sends one JoinGroup of protocol type connect; the metadata is
// never decoded by the broker.
func probeJoin(ctx context.Context, cl *kgo.Client, group, memberID string) (*kmsg.JoinGroupResponse, error) {
	req := kmsg.NewPtrJoinGroupRequest()
	req.Group = group
	req.MemberID = memberID
	req.ProtocolType = "connect"
	req.SessionTimeoutMillis = 30000
	req.RebalanceTimeoutMillis = 30000
	p := kmsg.NewJoinGroupRequestProtocol()
	p.Name = "sessioned"
	p.Metadata = []byte{0, 2}
	req.Protocols = append(req.Protocols, p)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return nil, fmt.Errorf("JoinGroup %s as %q: %w", group, memberID, err)
	}
	return resp, nil
}

// probeLeave removes the probe members, so the group does not linger in
// the broker's other tests.
func probeLeave(cl *kgo.Client, group string, ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = group
	for _, id := range ids {
		m := kmsg.NewLeaveGroupRequestMember()
		m.MemberID = id
		req.Members = append(req.Members, m)
	}
	req.RequestWith(ctx, cl) //nolint:errcheck // best effort: the session timeout removes them too
}
