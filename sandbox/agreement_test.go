package sandbox

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/plan/assignor"
)

// The agreement tests take a snapshot of a stable sandbox (read live, the
// way `connectscope snapshot` does), seed assignor.Sim from it, apply the same
// event to both, and require that what the live workers end up owning is
// exactly what the simulator predicted, piece by piece.

// agreementCluster is 3 workers with connectors whose counts do not divide
// evenly, so balancing has real choices to make.
func agreementCluster(t *testing.T, protocol string) *Cluster {
	t.Helper()
	c := startTest(t)
	addConnectors(t, c,
		ConnectorSpec{Name: "orders", Tasks: 5},
		ConnectorSpec{Name: "payments", Tasks: 3},
		ConnectorSpec{Name: "clicks", Tasks: 4},
		ConnectorSpec{Name: "audit", Kind: KindSink, Tasks: 2},
		ConnectorSpec{Name: "users", Tasks: 1})
	addWorkers(t, c, protocol, protocol, protocol)
	waitStable(t, c)
	return c
}

// snapshotSim seeds a simulator from a live read: configured connectors
// from the config topic, members in join order holding what the group
// description says, in their held order, and the leader's memory
// approximated as assignor.md §10 says (everything owned, nothing pending).
// It returns the simulator and the leader's member id.
func snapshotSim(t *testing.T, c *Cluster) (*assignor.Sim, string) {
	t.Helper()
	v := readLive(t, c)
	if v.ds.Group == nil || v.ds.Group.State != "Stable" {
		t.Fatalf("snapshot: group %+v, want Stable", v.ds.Group)
	}
	sim, err := assignor.NewSim(assignor.SimConfig{Protocol: simProtocol(v.ds.Group.Protocol), MaxDelayMs: c.Config().ScheduledRebalanceMaxDelay.Milliseconds()})
	if err != nil {
		t.Fatal(err)
	}
	var specs []assignor.ConnectorSpec
	for _, cc := range v.configs.Connectors {
		n := len(cc.Tasks)
		if cc.TargetState == TargetStopped {
			n = 0
		}
		specs = append(specs, assignor.ConnectorSpec{Name: cc.Name, Tasks: n})
	}
	sim.SetConnectors(specs)

	members := slices.Clone(v.ds.Group.Members)
	slices.SortFunc(members, func(a, b inspect.GroupMember) int {
		return cmp.Compare(c.memberSeq(a.MemberID), c.memberSeq(b.MemberID))
	})
	// Each member's pieces in its held order, as inspect derives it from
	// the group description (the same derivation plans use).
	view := group.Members(v.ds.Group)
	byID := map[string]group.MemberView{}
	for _, m := range view.Members {
		byID[m.MemberID] = m
	}
	st := assignor.NewAssignorState()
	var all holding
	for _, m := range members {
		mv := byID[m.MemberID]
		if mv.Held == nil {
			t.Fatalf("member %s: no held order derived (problem %v)", m.MemberID, mv.Problem)
		}
		held := holdingOfEntries(mv.Held.Connectors, mv.Held.Tasks)
		if err := sim.Join(m.MemberID, held.pieces()); err != nil {
			t.Fatal(err)
		}
		all = all.then(held)
		st.PreviousMembers = append(st.PreviousMembers, m.MemberID)
	}
	leader := ""
	if view.Leader != nil {
		leader = *view.Leader
	}
	st.PreviousAssignment = all.sorted().pieces()
	st.PreviousGenerationID = sim.Generation()
	sim.SetState(st)
	return sim, leader
}

// simOwnership maps worker names to sorted pieces from the simulator.
func simOwnership(c *Cluster, sim *assignor.Sim) map[string][]string {
	out := map[string][]string{}
	for _, id := range sim.Members() {
		o := sim.Owned(id)
		name := c.WorkerOfMember(id)
		out[name] = pieceNames(o.Connectors, o.Tasks)
	}
	return out
}

// memberIDOf waits until a worker has its member id (after its first
// JoinGroup) and returns it.
func memberIDOf(t *testing.T, c *Cluster, name string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, w := range c.WorkerStates() {
			if w.Name == name && w.MemberID != "" {
				return w.MemberID
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("worker %s never got a member id", name)
	return ""
}

func memberOf(t *testing.T, c *Cluster, name string) string {
	t.Helper()
	for _, w := range c.WorkerStates() {
		if w.Name == name {
			return w.MemberID
		}
	}
	t.Fatalf("no worker %s", name)
	return ""
}

// nonLeader returns a worker that does not lead the group.
func nonLeader(t *testing.T, c *Cluster, leader string) string {
	t.Helper()
	for _, w := range c.WorkerStates() {
		if w.MemberID != leader {
			return w.Name
		}
	}
	t.Fatal("every worker leads?")
	return ""
}

func leaderName(t *testing.T, c *Cluster, leader string) string {
	t.Helper()
	for _, w := range c.WorkerStates() {
		if w.MemberID == leader {
			return w.Name
		}
	}
	t.Fatalf("leader %s is no running worker", leader)
	return ""
}

func requireAgreement(t *testing.T, c *Cluster, sim *assignor.Sim) {
	t.Helper()
	waitStable(t, c)
	live, predicted := ownedByWorker(c), simOwnership(c, sim)
	if !equalOwnership(live, predicted) {
		t.Errorf("live workers own\n  %v\nplan predicted\n  %v", live, predicted)
		for _, r := range c.Rounds() {
			t.Log(r.Line())
		}
	}
	if u := union(live); !slices.Equal(u, allPieces(c)) {
		t.Errorf("live workers own %v, configured %v", u, allPieces(c))
	}
	// One leader per generation, even when the old leader left (see
	// worker.confirmLeadership).
	rounds := c.Rounds()
	for i := 1; i < len(rounds); i++ {
		if rounds[i].Generation <= rounds[i-1].Generation {
			t.Errorf("round %d: generation %d by %s after generation %d by %s", i, rounds[i].Generation, rounds[i].Leader, rounds[i-1].Generation, rounds[i-1].Leader)
		}
	}
}

func TestAgreementJoin(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, _ := snapshotSim(t, c)
	name, err := c.AddWorker(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Join(memberIDOf(t, c, name), assignor.Pieces{}); err != nil {
		t.Fatal(err)
	}
	sim.Settle(0)
	requireAgreement(t, c, sim)
}

func TestAgreementCleanLeave(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	name := nonLeader(t, c, leader)
	id := memberOf(t, c, name)
	if err := c.StopWorker(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	if err := sim.Leave(id); err != nil {
		t.Fatal(err)
	}
	rounds := sim.Settle(0)
	if rounds[0].Workers[sim.Members()[0]].DelayMs == 0 {
		t.Fatalf("plan did not hold the departed worker's pieces back: %+v", rounds[0])
	}
	requireAgreement(t, c, sim)
}

func TestAgreementLeaderLeaves(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	name := leaderName(t, c, leader)
	if err := c.StopWorker(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	sim.NewLeader() // the next leader starts with no memory
	if err := sim.Leave(leader); err != nil {
		t.Fatal(err)
	}
	sim.Settle(0)
	requireAgreement(t, c, sim)
}

func TestAgreementCrash(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	name := nonLeader(t, c, leader)
	id := memberOf(t, c, name)
	if err := c.KillWorker(name); err != nil {
		t.Fatal(err)
	}
	if err := sim.Leave(id); err != nil {
		t.Fatal(err)
	}
	sim.Settle(0)
	requireAgreement(t, c, sim)
}

func TestAgreementBounce(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "")
	sim, leader := snapshotSim(t, c)
	name := nonLeader(t, c, leader)
	id := memberOf(t, c, name)
	start := time.Now()
	if err := c.RestartWorker(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	if err := sim.Leave(id); err != nil {
		t.Fatal(err)
	}
	sim.Rebalance(false)
	newID := memberIDOf(t, c, name)
	sim.Sleep(time.Since(start).Milliseconds())
	if err := sim.Join(newID, assignor.Pieces{}); err != nil {
		t.Fatal(err)
	}
	sim.Settle(0)
	requireAgreement(t, c, sim)
}

// Eager: every round reassigns everything, round robin over sorted member
// ids; the new worker's id decides where everything lands.
func TestAgreementJoinEager(t *testing.T) {
	t.Parallel() // owns its cluster
	c := agreementCluster(t, "eager")
	sim, _ := snapshotSim(t, c)
	if p := sim.Config().Protocol; p != "eager" {
		t.Fatalf("simulator protocol %q, want eager", p)
	}
	name, err := c.AddWorker(context.Background(), "", "eager")
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Join(memberIDOf(t, c, name), assignor.Pieces{}); err != nil {
		t.Fatal(err)
	}
	sim.Settle(0)
	requireAgreement(t, c, sim)
}
