package sandbox

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// The group as the broker describes it must be a real Connect group whose
// decoded bytes agree with what the workers themselves run.
func TestGroupOnTheWire(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "sessioned", "sessioned", "sessioned")
	addConnectors(t, c, ConnectorSpec{Name: "orders", Tasks: 4}, ConnectorSpec{Name: "audit", Kind: KindSink, Tasks: 2})
	waitStable(t, c)
	v := readLive(t, c)
	g := v.ds.Group
	if g.ProtocolType != "connect" || g.Protocol != "sessioned" || g.State != "Stable" {
		t.Fatalf("group type %q protocol %q state %q, want connect/sessioned/Stable", g.ProtocolType, g.Protocol, g.State)
	}
	for _, m := range g.Members {
		if !strings.HasPrefix(m.ClientID, "connect-worker-") || !strings.HasPrefix(m.MemberID, m.ClientID+"-") {
			t.Errorf("member %q client %q: want client id connect-HOST:PORT and member id CLIENTID-UUID", m.MemberID, m.ClientID)
		}
		// The allocation may be null: a worker that joined fresh and was
		// not asked to rejoin since still shows its first metadata.
		meta, err := protocol.DecodeMetadata(m.Metadata)
		if err != nil || meta.Version != 2 || meta.URL != "http://"+strings.TrimPrefix(m.ClientID, "connect-")+"/" {
			t.Errorf("member %s metadata: version %d url %q err %v; want V2 with the worker's URL", m.MemberID, meta.Version, meta.URL, err)
		}
	}
	got, want := ownedFromGroup(t, v.members), ownedByWorker(c)
	if !equalOwnership(got, want) {
		t.Fatalf("DescribeGroups says %v, workers run %v", got, want)
	}
	if u := union(want); !slices.Equal(u, allPieces(c)) {
		t.Fatalf("workers own %v, configured %v", u, allPieces(c))
	}
	if v.members.Leader == nil || *v.members.Leader != c.Rounds()[len(c.Rounds())-1].LeaderMemberID {
		t.Errorf("leader %v, want the last round's leader", v.members.Leader)
	}
}

func equalOwnership(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// The broker picks the lowest common protocol (connect-internals.md §2.3).
func TestProtocolSelection(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "compatible")
	waitStable(t, c) // the compatible worker is a member before any sessioned one joins
	addWorkers(t, c, "sessioned")
	addConnectors(t, c, ConnectorSpec{Name: "a", Tasks: 3})
	waitStable(t, c)
	if p := readLive(t, c).ds.Group.Protocol; p != "compatible" {
		t.Fatalf("sessioned + compatible workers: group protocol %q, want compatible", p)
	}
	addWorkers(t, c, "eager")
	waitStable(t, c)
	v := readLive(t, c)
	if v.ds.Group.Protocol != "default" {
		t.Fatalf("with an eager worker: group protocol %q, want default", v.ds.Group.Protocol)
	}
	if got, want := ownedFromGroup(t, v.members), ownedByWorker(c); !equalOwnership(got, want) {
		t.Fatalf("eager: DescribeGroups says %v, workers run %v", got, want)
	}
	if u := union(ownedByWorker(c)); !slices.Equal(u, allPieces(c)) {
		t.Fatalf("eager: workers own %v, configured %v", u, allPieces(c))
	}
	if _, _, _, ok := findSessionKey(v); ok {
		t.Error("a session key was written although the group never ran sessioned")
	}
}

func findSessionKey(v liveView) (string, int64, bool, bool) {
	if v.configs.SessionKey == nil {
		return "", 0, false, false
	}
	return v.configs.SessionKey.Algorithm, v.configs.SessionKey.CreatedAtMs, true, true
}

// A clean stop sends LeaveGroup (the broker drops the member at once); a
// kill sends nothing (the member stays until its session times out).
func TestStopLeavesKillExpires(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "", "", "")
	addConnectors(t, c, ConnectorSpec{Name: "a", Tasks: 3})
	waitStable(t, c)
	members := func() int { return len(c.kf.GroupInfo(c.GroupID()).Members) }

	// Departures of non-leaders: the leader's memory holds their pieces back
	// for the scheduled delay (a departing leader's pieces move at once).
	leader := c.WorkerStates()[0].Leader
	if err := c.StopWorker(context.Background(), nonLeader(t, c, leader)); err != nil {
		t.Fatal(err)
	}
	if n := members(); n != 2 {
		t.Fatalf("right after a clean stop the group has %d members, want 2 (LeaveGroup)", n)
	}
	waitStable(t, c)
	if err := c.KillWorker(nonLeader(t, c, leader)); err != nil {
		t.Fatal(err)
	}
	if n := members(); n != 2 {
		t.Fatalf("right after a kill the group has %d members, want still 2", n)
	}
	waitStable(t, c)
	if n := members(); n != 1 {
		t.Fatalf("after the session timeout the group has %d members, want 1", n)
	}
	if got := union(ownedByWorker(c)); !slices.Equal(got, allPieces(c)) {
		t.Fatalf("the last worker owns %v, want everything %v", got, allPieces(c))
	}
	// The departures were held back for the scheduled delay (assignor.md §0).
	delayed := false
	for _, r := range c.Rounds() {
		delayed = delayed || r.DelayMs > 0
	}
	if !delayed {
		t.Error("no round scheduled a delay for the departed workers' pieces")
	}
}

// A restarted worker comes back under its name with a new member id and
// nothing held.
func TestRestartWorker(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "", "")
	addConnectors(t, c, ConnectorSpec{Name: "a", Tasks: 2})
	waitStable(t, c)
	before := c.WorkerStates()[1]
	if err := c.RestartWorker(context.Background(), before.Name); err != nil {
		t.Fatal(err)
	}
	waitStable(t, c)
	after := c.WorkerStates()[1]
	if after.Name != before.Name || after.MemberID == before.MemberID || after.MemberID == "" {
		t.Fatalf("restart: before %s/%s, after %s/%s; want same name, new member id", before.Name, before.MemberID, after.Name, after.MemberID)
	}
	if got := union(ownedByWorker(c)); !slices.Equal(got, allPieces(c)) {
		t.Fatalf("after restart workers own %v, want %v", got, allPieces(c))
	}
}

// What the workers write must read back, through connectscope's decoders, as
// the state the test created.
func TestInternalTopicRecords(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	ctx := context.Background()
	addWorkers(t, c, "", "")
	addConnectors(t, c,
		ConnectorSpec{Name: "src", Tasks: 2},
		ConnectorSpec{Name: "paused", Tasks: 1},
		ConnectorSpec{Name: "gone", Tasks: 1},
		ConnectorSpec{Name: "stopped", Tasks: 2},
		ConnectorSpec{Name: "snk", Kind: KindSink, Tasks: 2})
	waitStable(t, c)
	for _, step := range []error{
		c.PauseConnector(ctx, "paused"),
		c.StopConnector(ctx, "stopped"),
		c.RemoveConnector(ctx, "gone"),
		c.ReconfigureConnector(ctx, "src", 3),
		c.FailTask(ctx, "snk", 1),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	waitStable(t, c)
	v := readLive(t, c)

	if alg, _, _, ok := findSessionKey(v); !ok || alg != "HmacSHA256" {
		t.Errorf("session key %q present %v, want HmacSHA256", alg, ok)
	}
	wantTarget := map[string]string{"src": "STARTED", "paused": "PAUSED", "stopped": "STOPPED", "snk": "STARTED"}
	wantTasks := map[string]int32{"src": 3, "paused": 1, "stopped": 0, "snk": 2}
	var names []string
	for _, cc := range v.configs.Connectors {
		names = append(names, cc.Name)
		if cc.TargetState != wantTarget[cc.Name] || cc.TaskCount == nil || *cc.TaskCount != wantTasks[cc.Name] || !cc.Consistent {
			t.Errorf("connector %s: target %s tasks %v consistent %v; want %s, %d, consistent", cc.Name, cc.TargetState, cc.TaskCount, cc.Consistent, wantTarget[cc.Name], wantTasks[cc.Name])
		}
	}
	if !slices.Equal(names, []string{"paused", "snk", "src", "stopped"}) {
		t.Errorf("configured connectors %v", names)
	}

	owner := map[string]string{}
	for name, ps := range ownedByWorker(c) {
		for _, p := range ps {
			owner[p] = name + ":8083"
		}
	}
	gen := c.WorkerStates()[0].Generation
	wantState := map[string]string{
		"src": "RUNNING", "src-0": "RUNNING", "src-1": "RUNNING", "src-2": "RUNNING",
		"paused": "PAUSED", "paused-0": "PAUSED", "stopped": "STOPPED",
		"snk": "RUNNING", "snk-0": "RUNNING", "snk-1": "FAILED",
	}
	for id, want := range wantState {
		state, worker, g, ok := statusOf(v, id)
		if !ok || state != want || worker != owner[id] || g <= 0 || g > gen {
			t.Errorf("status of %s: %q by %q gen %d (found %v); want %s by %s, gen in 1..%d", id, state, worker, g, ok, want, owner[id], gen)
		}
	}
	for _, gone := range []string{"gone", "gone-0"} {
		if _, _, _, ok := statusOf(v, gone); ok {
			t.Errorf("status of deleted %s still present", gone)
		}
	}
	for _, ts := range v.status.Tasks {
		if ts.ID == "snk-1" && (ts.Trace == nil || !strings.Contains(*ts.Trace, "ConnectException")) {
			t.Errorf("failed task trace %v", ts.Trace)
		}
	}
	if len(v.status.Topics) != 1 || v.status.Topics[0].Topic != "snk-data" || v.status.Topics[0].Connector != "snk" {
		t.Errorf("active topics %+v, want snk-data for snk", v.status.Topics)
	}

	srcOffsets := map[string]bool{}
	for _, o := range v.offsets.Offsets {
		srcOffsets[o.Connector] = true
	}
	if !srcOffsets["src"] || srcOffsets["snk"] {
		t.Errorf("source offsets for %v; want src and no sink", srcOffsets)
	}

	var sink *inspect.SinkGroup
	for i := range v.ds.SinkGroups {
		if v.ds.SinkGroups[i].Connector == "snk" {
			sink = &v.ds.SinkGroups[i]
		}
	}
	if sink == nil {
		t.Fatalf("no sink group read for snk (groups %+v)", v.ds.SinkGroups)
	}
	var lag int64
	for _, o := range sink.Offsets {
		lag += o.End - o.Committed
	}
	if sink.Group != "connect-snk" || len(sink.Offsets) != sinkTopicPartitions || lag <= 0 {
		t.Errorf("sink group %s: %d partitions committed, lag %d; want connect-snk, %d, lag > 0", sink.Group, len(sink.Offsets), lag, sinkTopicPartitions)
	}
}

// What the workers send, observed at the broker: JoinGroup with protocol
// type connect and the protocols of each connect.protocol in Kafka's order
// with matching metadata versions; LeaveGroup on a clean stop only.
func TestWireRequests(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	var mu sync.Mutex
	offers := map[string][][]string{} // URL -> protocol names per JoinGroup
	var leaves, problems []string     // the control functions run on the broker's goroutine: report at the end
	c.kf.ControlKey(int16(kmsg.JoinGroup), func(r kmsg.Request) (kmsg.Response, error, bool) {
		req := r.(*kmsg.JoinGroupRequest)
		if req.Group != c.GroupID() {
			return nil, nil, false
		}
		mu.Lock()
		defer mu.Unlock()
		var names []string
		url := ""
		for i, p := range req.Protocols {
			names = append(names, p.Name)
			meta, err := protocol.DecodeMetadata(p.Metadata)
			want, _ := protocol.ProtocolVersion(p.Name)
			if err != nil || meta.Version != want {
				problems = append(problems, fmt.Sprintf("protocol %d %s: metadata version %d err %v, want version %d", i, p.Name, meta.Version, err, want))
				continue
			}
			url = meta.URL
		}
		if req.ProtocolType != "connect" || req.InstanceID != nil || req.SessionTimeoutMillis != int32(c.Config().SessionTimeout.Milliseconds()) {
			problems = append(problems, fmt.Sprintf("JoinGroup type %q instance %v session %d: want connect, no instance id, the session timeout", req.ProtocolType, req.InstanceID, req.SessionTimeoutMillis))
		}
		offers[url] = append(offers[url], names)
		return nil, nil, false
	})
	c.kf.ControlKey(int16(kmsg.LeaveGroup), func(r kmsg.Request) (kmsg.Response, error, bool) {
		req := r.(*kmsg.LeaveGroupRequest)
		if req.Group == c.GroupID() {
			mu.Lock()
			for _, m := range req.Members {
				leaves = append(leaves, m.MemberID)
			}
			mu.Unlock()
		}
		return nil, nil, false
	})
	addWorkers(t, c, "eager", "compatible", "sessioned")
	addConnectors(t, c, ConnectorSpec{Name: "a", Tasks: 2})
	waitStable(t, c)
	stopped, killed := memberOf(t, c, "worker-2"), memberOf(t, c, "worker-3")
	if err := c.StopWorker(context.Background(), "worker-2"); err != nil {
		t.Fatal(err)
	}
	if err := c.KillWorker("worker-3"); err != nil {
		t.Fatal(err)
	}
	waitStable(t, c)

	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	want := map[string][]string{
		"http://worker-1:8083/": {"default"},
		"http://worker-2:8083/": {"compatible", "default"},
		"http://worker-3:8083/": {"sessioned", "compatible", "default"},
	}
	for url, names := range want {
		if len(offers[url]) == 0 {
			t.Errorf("no JoinGroup from %s", url)
		}
		for _, got := range offers[url] {
			if !slices.Equal(got, names) {
				t.Errorf("%s offered %v, want %v", url, got, names)
			}
		}
	}
	if !slices.Equal(leaves, []string{stopped}) {
		t.Errorf("LeaveGroup for %v; want only the stopped worker %s (not the killed %s)", leaves, stopped, killed)
	}
}

// A crashed worker's sink consumers vanish without LeaveGroup (they stay in
// connect-NAME until their session times out); a clean stop's consumers
// leave.
func TestSinkConsumersOnStopAndCrash(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	var mu sync.Mutex
	var leaves []string // member ids that left connect-snk
	c.kf.ControlKey(int16(kmsg.LeaveGroup), func(r kmsg.Request) (kmsg.Response, error, bool) {
		req := r.(*kmsg.LeaveGroupRequest)
		if req.Group == SinkGroup("snk") {
			mu.Lock()
			for _, m := range req.Members {
				leaves = append(leaves, m.MemberID)
			}
			mu.Unlock()
		}
		return nil, nil, false
	})
	leftAs := func(prefix string) bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.ContainsFunc(leaves, func(id string) bool { return strings.HasPrefix(id, prefix) })
	}
	addWorkers(t, c, "", "", "")
	addConnectors(t, c, ConnectorSpec{Name: "snk", Kind: KindSink, Tasks: 3})
	waitStable(t, c)
	consumers := func() int { return len(c.kf.GroupInfo(SinkGroup("snk")).Members) }
	if n := consumers(); n != 3 {
		t.Fatalf("sink group has %d members, want 3", n)
	}
	ownerOf := func(task string) string {
		for name, ps := range ownedByWorker(c) {
			if slices.Contains(ps, task) {
				return name
			}
		}
		t.Fatalf("nobody owns %s", task)
		return ""
	}
	if err := c.StopWorker(context.Background(), ownerOf("snk-0")); err != nil {
		t.Fatal(err)
	}
	if !leftAs("connector-consumer-snk-0-") {
		t.Fatalf("a clean stop did not send LeaveGroup for the snk-0 consumer (leaves: %v)", leaves)
	}
	waitStable(t, c)
	// The rebalance after the stop may move snk-1 and stop its consumer
	// cleanly (a LeaveGroup of its own): only what follows the crash counts.
	mu.Lock()
	leaves = nil
	mu.Unlock()
	if err := c.KillWorker(ownerOf("snk-1")); err != nil {
		t.Fatal(err)
	}
	waitStable(t, c)
	if leftAs("connector-consumer-snk-1-") {
		t.Fatalf("the crashed worker's consumer sent LeaveGroup (leaves: %v)", leaves)
	}
	if n := consumers(); n != 3 {
		t.Fatalf("after settling the sink group has %d members, want 3 (all tasks on the last worker)", n)
	}
}
