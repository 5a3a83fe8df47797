//go:build e2e

package realbroker

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
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
// Eight members form the group; a ninth then joins, so every member
// rejoins and the order is checked again in the new generation.
func testMemberOrder(t *testing.T, c *cluster) {
	const group = "member-order-probe"
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := &probeGroup{group: group, lists: map[int32][]string{}, done: make(chan struct{}), errs: make(chan error, 16)}
	defer p.stop()
	var leaderList []string
	for _, members := range []int{8, 9} {
		for len(p.ids) < members {
			p.add(ctx, t, c)
		}
		var desc []string
		desc, leaderList = p.waitStable(ctx, t, members)
		t.Logf("%d members stable after %d generation(s) led", members, p.generations())
		if slices.IsSorted(leaderList) {
			t.Fatalf("the broker listed the %d members in sorted order by chance; the test cannot tell sorting from keeping", members)
		}
		if !slices.Equal(desc, leaderList) {
			t.Errorf("%d members: the description lists them as\n  %s\nthe leader's JoinGroup list was\n  %s", members, strings.Join(desc, "\n  "), strings.Join(leaderList, "\n  "))
		}
	}

	snap := filepath.Join(t.TempDir(), "probe.snapshot.json")
	if _, stderr, code := c.live("--group", group, "snapshot", "--file", snap); code > 1 {
		t.Fatalf("snapshot of %s: exit %d: %s", group, code, stderr)
	}
	d, err := source.LoadFile(snap, inspect.DefaultTopicNames())
	if err != nil {
		t.Fatal(err)
	}
	snapped := inspect.MemberIDs(d.Group)
	if !slices.Equal(snapped, leaderList) {
		t.Errorf("the snapshot lists members as\n  %s\nthe leader's JoinGroup list was\n  %s", strings.Join(snapped, "\n  "), strings.Join(leaderList, "\n  "))
	}
}

// probeGroup is the probe members' shared state: their clients and ids,
// and the leader's JoinGroup list of each generation.
type probeGroup struct {
	group   string
	clients []*kgo.Client
	ids     []string
	wg      sync.WaitGroup
	done    chan struct{}
	errs    chan error
	mu      sync.Mutex
	lists   map[int32][]string
}

// add gets a member id for one more probe member (the first JoinGroup only
// hands it out, KIP-394) and starts its client loop.
func (p *probeGroup) add(ctx context.Context, t *testing.T, c *cluster) {
	t.Helper()
	name := fmt.Sprintf("probe-%d", len(p.ids))
	cl := c.b.Client(t, kgo.ClientID(name))
	resp, err := probeJoin(ctx, cl, p.group, "")
	if err != nil {
		t.Fatal(err)
	}
	if resp.ErrorCode != kerr.MemberIDRequired.Code {
		t.Fatalf("first JoinGroup of %s: error %d, want MEMBER_ID_REQUIRED", name, resp.ErrorCode)
	}
	p.clients, p.ids = append(p.clients, cl), append(p.ids, resp.MemberID)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if err := p.member(ctx, cl, resp.MemberID); err != nil {
			p.errs <- err
		}
	}()
}

// waitStable waits until the group is Stable with n members and the
// leader's list of the newest generation holds them all; it returns the
// description's order and that list.
func (p *probeGroup) waitStable(ctx context.Context, t *testing.T, n int) (desc, leaderList []string) {
	t.Helper()
	for {
		select {
		case err := <-p.errs:
			t.Fatal(err)
		case <-ctx.Done():
			t.Fatalf("the %d probe members never formed one stable generation (last description %v)", n, desc)
		case <-time.After(300 * time.Millisecond):
		}
		d, err := live.DescribeGroup(ctx, p.clients[0], p.group)
		if err != nil {
			t.Fatal(err)
		}
		desc = inspect.MemberIDs(d)
		leaderList = p.latest()
		if d.State == "Stable" && len(desc) == n && len(leaderList) == n && sameSet(desc, leaderList) {
			return desc, leaderList
		}
	}
}

// stop ends the member loops and removes the members, so the group does
// not linger in the broker's other tests.
func (p *probeGroup) stop() {
	close(p.done)
	p.wg.Wait()
	if len(p.clients) > 0 {
		probeLeave(p.clients[0], p.group, p.ids)
	}
}

// latest is the leader's list of the newest generation seen.
func (p *probeGroup) latest() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var newest int32 = -1
	for g := range p.lists {
		newest = max(newest, g)
	}
	return slices.Clone(p.lists[newest])
}

func (p *probeGroup) generations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lists)
}

// member is one probe member's client loop: join, sync (the leader hands
// out empty assignments), heartbeat, and rejoin when the broker says a
// rebalance is in progress.
func (p *probeGroup) member(ctx context.Context, cl *kgo.Client, id string) error {
	for {
		resp, err := probeJoin(ctx, cl, p.group, id)
		if err != nil {
			return err
		}
		if resp.ErrorCode != 0 {
			return fmt.Errorf("JoinGroup of %s: %w", id, kerr.ErrorForCode(resp.ErrorCode))
		}
		sreq := kmsg.NewPtrSyncGroupRequest()
		sreq.Group, sreq.Generation, sreq.MemberID = p.group, resp.Generation, id
		sreq.ProtocolType, sreq.Protocol = resp.ProtocolType, resp.Protocol
		if resp.LeaderID == id {
			var list []string
			for _, m := range resp.Members {
				list = append(list, m.MemberID)
				a := kmsg.NewSyncGroupRequestGroupAssignment()
				a.MemberID, a.MemberAssignment = m.MemberID, []byte{}
				sreq.GroupAssignment = append(sreq.GroupAssignment, a)
			}
			p.mu.Lock()
			p.lists[resp.Generation] = list
			p.mu.Unlock()
		}
		sresp, err := sreq.RequestWith(ctx, cl)
		if err != nil {
			return fmt.Errorf("SyncGroup of %s: %w", id, err)
		}
		if sresp.ErrorCode == kerr.RebalanceInProgress.Code {
			continue
		}
		if sresp.ErrorCode != 0 {
			return fmt.Errorf("SyncGroup of %s: %w", id, kerr.ErrorForCode(sresp.ErrorCode))
		}
		for rejoin := false; !rejoin; {
			select {
			case <-p.done:
				return nil
			case <-ctx.Done():
				return nil
			case <-time.After(300 * time.Millisecond):
			}
			hb := kmsg.NewPtrHeartbeatRequest()
			hb.Group, hb.Generation, hb.MemberID = p.group, resp.Generation, id
			hresp, err := hb.RequestWith(ctx, cl)
			if err != nil {
				return fmt.Errorf("Heartbeat of %s: %w", id, err)
			}
			switch hresp.ErrorCode {
			case 0:
			case kerr.RebalanceInProgress.Code:
				rejoin = true
			default:
				return fmt.Errorf("Heartbeat of %s: %w", id, kerr.ErrorForCode(hresp.ErrorCode))
			}
		}
	}
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// probeJoin sends one JoinGroup of protocol type connect; the metadata is
// never decoded by the broker.
func probeJoin(ctx context.Context, cl *kgo.Client, group, memberID string) (*kmsg.JoinGroupResponse, error) {
	req := kmsg.NewPtrJoinGroupRequest()
	req.Group = group
	req.MemberID = memberID
	req.ProtocolType = "connect"
	req.SessionTimeoutMillis = 10000
	req.RebalanceTimeoutMillis = 10000
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
