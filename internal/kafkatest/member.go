package kafkatest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Protocol is one (name, metadata) pair a member offers in JoinGroup.
type Protocol struct {
	Name     string
	Metadata []byte
}

// AssignFunc is the leader's assignor: member ids and the selected
// protocol's metadata in, assignment bytes per member id out.
type AssignFunc func(protocol string, members map[string][]byte) map[string][]byte

// Member is a minimal group member speaking the classic group protocol with
// raw requests (JoinGroup, SyncGroup, Heartbeat), enough to put a group of
// any protocol type into each state a test needs. It is test scaffolding,
// not a simulated Connect worker (see sandbox/ for those).
type Member struct {
	cl           *kgo.Client
	group, ptype string
	protocols    []Protocol
	assign       AssignFunc
	sessionMs    int32

	mu         sync.Mutex
	memberID   string
	generation int32
	paused     bool

	cancel context.CancelFunc
	done   chan struct{}
	stable chan struct{}
}

// JoinMember starts a member of group with protocol type ptype (for example
// "connect") and clientID; it rejoins when the group rebalances and
// heartbeats until the test ends or Stop/Crash is called. It waits until
// the member's first SyncGroup succeeded.
func (c *Cluster) JoinMember(t testing.TB, group, ptype, clientID string, protocols []Protocol, assign AssignFunc, opts ...MemberOption) *Member {
	t.Helper()
	m := c.StartMember(t, group, ptype, clientID, protocols, assign, opts...)
	select {
	case <-m.stable:
	case <-time.After(20 * time.Second):
		t.Fatalf("member %s did not join group %s", clientID, group)
	}
	return m
}

// StartMember is JoinMember without waiting for the join to complete.
func (c *Cluster) StartMember(t testing.TB, group, ptype, clientID string, protocols []Protocol, assign AssignFunc, opts ...MemberOption) *Member {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	m := &Member{
		cl: c.Client(t, kgo.ClientID(clientID)), group: group, ptype: ptype, protocols: protocols,
		assign: assign, sessionMs: 3000, cancel: cancel, done: make(chan struct{}), stable: make(chan struct{}),
	}
	for _, o := range opts {
		o(m)
	}
	go m.run(ctx)
	t.Cleanup(m.Crash)
	return m
}

// MemberOption adjusts a Member before it starts.
type MemberOption func(*Member)

// SessionTimeout sets the member's session and rebalance timeouts (default 3s).
func SessionTimeout(d time.Duration) MemberOption {
	return func(m *Member) { m.sessionMs = int32(d.Milliseconds()) }
}

// Pause stops heartbeats and rejoins, as a hung worker would: the group
// stays mid-rebalance until the member's session times out.
func (m *Member) Pause() { m.mu.Lock(); m.paused = true; m.mu.Unlock() }

// Crash stops the member without leaving the group.
func (m *Member) Crash() {
	m.cancel()
	<-m.done
}

// Stop leaves the group cleanly.
func (m *Member) Stop() {
	m.Crash()
	m.mu.Lock()
	id := m.memberID
	m.mu.Unlock()
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = m.group
	req.MemberID = id
	mi := kmsg.NewLeaveGroupRequestMember()
	mi.MemberID = id
	req.Members = []kmsg.LeaveGroupRequestMember{mi}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = m.cl.Request(ctx, req)
}

// Generation is the generation of the member's latest successful sync.
func (m *Member) Generation() int32 { m.mu.Lock(); defer m.mu.Unlock(); return m.generation }

func (m *Member) run(ctx context.Context) {
	defer close(m.done)
	once := sync.Once{}
	for ctx.Err() == nil {
		if m.isPaused() {
			sleep(ctx, 50*time.Millisecond)
			continue
		}
		if err := m.joinAndSync(ctx); err != nil {
			sleep(ctx, 100*time.Millisecond)
			continue
		}
		once.Do(func() { close(m.stable) })
		for ctx.Err() == nil && !m.isPaused() {
			sleep(ctx, 100*time.Millisecond)
			if err := m.heartbeat(ctx); err != nil {
				break // rebalance in progress or fenced: join again
			}
		}
	}
}

func (m *Member) isPaused() bool { m.mu.Lock(); defer m.mu.Unlock(); return m.paused }

func (m *Member) joinAndSync(ctx context.Context) error {
	req := kmsg.NewPtrJoinGroupRequest()
	req.Group = m.group
	req.SessionTimeoutMillis = m.sessionMs
	req.RebalanceTimeoutMillis = m.sessionMs
	req.ProtocolType = m.ptype
	m.mu.Lock()
	req.MemberID = m.memberID
	m.mu.Unlock()
	for _, p := range m.protocols {
		jp := kmsg.NewJoinGroupRequestProtocol()
		jp.Name, jp.Metadata = p.Name, p.Metadata
		req.Protocols = append(req.Protocols, jp)
	}
	var resp *kmsg.JoinGroupResponse
	for range 2 {
		kresp, err := m.cl.Request(ctx, req)
		if err != nil {
			return err
		}
		resp = kresp.(*kmsg.JoinGroupResponse)
		if resp.ErrorCode == kerr.MemberIDRequired.Code {
			req.MemberID = resp.MemberID
			continue
		}
		break
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		if errors.Is(err, kerr.UnknownMemberID) {
			m.mu.Lock()
			m.memberID = ""
			m.mu.Unlock()
		}
		return err
	}
	m.mu.Lock()
	m.memberID = resp.MemberID
	m.mu.Unlock()
	sync := kmsg.NewPtrSyncGroupRequest()
	sync.Group, sync.Generation, sync.MemberID = m.group, resp.Generation, resp.MemberID
	sync.ProtocolType, sync.Protocol = resp.ProtocolType, resp.Protocol
	if resp.LeaderID == resp.MemberID && m.assign != nil {
		members := map[string][]byte{}
		for _, jm := range resp.Members {
			members[jm.MemberID] = jm.ProtocolMetadata
		}
		var name string
		if resp.Protocol != nil {
			name = *resp.Protocol
		}
		for id, a := range m.assign(name, members) {
			sa := kmsg.NewSyncGroupRequestGroupAssignment()
			sa.MemberID, sa.MemberAssignment = id, a
			sync.GroupAssignment = append(sync.GroupAssignment, sa)
		}
	}
	kresp, err := m.cl.Request(ctx, sync)
	if err != nil {
		return err
	}
	if err := kerr.ErrorForCode(kresp.(*kmsg.SyncGroupResponse).ErrorCode); err != nil {
		return err
	}
	m.mu.Lock()
	m.generation = resp.Generation
	m.mu.Unlock()
	return nil
}

func (m *Member) heartbeat(ctx context.Context) error {
	req := kmsg.NewPtrHeartbeatRequest()
	m.mu.Lock()
	req.Group, req.Generation, req.MemberID = m.group, m.generation, m.memberID
	m.mu.Unlock()
	kresp, err := m.cl.Request(ctx, req)
	if err != nil {
		return err
	}
	if code := kresp.(*kmsg.HeartbeatResponse).ErrorCode; code != 0 {
		return fmt.Errorf("heartbeat: %w", kerr.ErrorForCode(code))
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// WaitGroupState waits until the broker describes group in state (such as
// "PreparingRebalance" once a member started with StartMember has sent its
// JoinGroup), failing the test after within. A member's first request can
// come late on a loaded machine, so a test that reads the group in that
// state waits for it rather than assuming it.
func (c *Cluster) WaitGroupState(t testing.TB, group, state string, within time.Duration) {
	t.Helper()
	adm := kadm.NewClient(c.Client(t))
	deadline := time.Now().Add(within)
	last := "not described"
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		described, err := adm.DescribeGroups(ctx, group)
		cancel()
		if err == nil {
			if g, ok := described[group]; ok && g.Err == nil {
				if last = g.State; last == state {
					return
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("group %s still %s after %v, want %s", group, last, within, state)
}
