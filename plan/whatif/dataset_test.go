package whatif

import (
	"errors"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

func configRecord(offset int64, key, value string) inspect.Record {
	r := inspect.Record{Topic: "connect-configs", Offset: offset, Key: []byte(key)}
	if value != "" {
		r.Value = []byte(value)
	}
	return r
}

// member encodes a sessioned member whose latest assignment gives it conns
// and tasks (and no embedded allocation), as the broker would describe it.
func member(t *testing.T, id, url, leader string, conns []string, tasks []protocol.TaskRef) inspect.GroupMember {
	t.Helper()
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 9})
	if err != nil {
		t.Fatal(err)
	}
	asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: leader, LeaderURL: "http://10.0.0.1:8083/", ConfigOffset: 9,
		Assigned: protocol.EntriesFor(conns, tasks), Revoked: []protocol.ConnectorEntry{}})
	if err != nil {
		t.Fatal(err)
	}
	return inspect.GroupMember{MemberID: id, ClientID: strings.SplitN(id, "-", 3)[0] + "-" + strings.SplitN(id, "-", 3)[1], ClientHost: "/" + strings.TrimSuffix(strings.TrimPrefix(url, "http://"), ":8083/"), Metadata: meta, Assignment: asg}
}

func testDataset(t *testing.T) *inspect.Dataset {
	props := `{"properties":{"connector.class":"X","tasks.max":"3"}}`
	task := `{"properties":{"task.class":"Y"}}`
	recs := []inspect.Record{
		configRecord(0, "connector-orders", props),
		configRecord(1, "task-orders-0", task),
		configRecord(2, "task-orders-1", task),
		configRecord(3, "task-orders-2", task),
		configRecord(4, "commit-orders", `{"tasks":3}`),
		configRecord(5, "connector-legacy", props),
		configRecord(6, "task-legacy-0", task),
		configRecord(7, "commit-legacy", `{"tasks":1}`),
		configRecord(8, "target-state-legacy", `{"state":"PAUSED","state.v2":"STOPPED"}`),
		configRecord(9, "connector-broken", props),
		configRecord(10, "task-broken-0", task),
		configRecord(11, "commit-broken", `{"tasks":2}`),
	}
	lead := "connect-1-aaaa"
	return &inspect.Dataset{
		Source:  "file:cluster.snapshot.json",
		Topics:  inspect.DefaultTopicNames(),
		Records: recs,
		Group: &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
			Members: []inspect.GroupMember{
				member(t, "connect-2-bbbb", "http://10.0.0.2:8083/", lead, []string{"orders"}, []protocol.TaskRef{{Connector: "orders", Task: 1}, {Connector: "legacy", Task: 0}}),
				member(t, lead, "http://10.0.0.1:8083/", lead, []string{"legacy", "broken"}, []protocol.TaskRef{{Connector: "orders", Task: 0}, {Connector: "orders", Task: 2}}),
			}},
	}
}

func TestStateFromDataset(t *testing.T) {
	st, err := cluster.StateFromDataset(views.Decode(testDataset(t), store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"orders": 3, "legacy": 0, "broken": 0}
	if len(st.Connectors) != len(want) {
		t.Fatalf("connectors %v", st.Connectors)
	}
	for _, c := range st.Connectors {
		if w, ok := want[c.Name]; !ok || w != c.Tasks {
			t.Errorf("%s: %d tasks, want %d (STOPPED and inconsistent connectors have none)", c.Name, c.Tasks, w)
		}
	}
	if len(st.Workers) != 2 || st.Workers[0].ID != "connect-2-bbbb" || st.Workers[1].ID != "connect-1-aaaa" {
		t.Fatalf("workers not in the broker's order: %+v", st.Workers)
	}
	if st.Leader != "connect-1-aaaa" || st.Protocol != "sessioned" {
		t.Errorf("leader %q protocol %q", st.Leader, st.Protocol)
	}
	w2 := st.Workers[0]
	// Held order, as the assignment's bytes list it (orders' entry first),
	// not sorted: it decides what a load-balancing round trims first.
	if strings.Join(w2.Owned.Connectors, ",") != "orders" || len(w2.Owned.Tasks) != 2 || w2.Owned.Tasks[0].String() != "orders-1" {
		t.Errorf("owned %+v", w2.Owned)
	}
	if w, err := st.ResolveWorker("10.0.0.2:8083"); err != nil || w != "connect-2-bbbb" {
		t.Errorf("resolve by host:port: %q %v", w, err)
	}
	if !strings.Contains(strings.Join(st.Notes, "\n"), "broken is inconsistent") {
		t.Errorf("no note about the inconsistent connector: %v", st.Notes)
	}

	// A plan on it: the follower leaves cleanly and never returns. Its
	// orders connector and orders-1 are held for the delay; legacy-0, which
	// it also held, is not configured (legacy is STOPPED), so nothing waits
	// for it.
	res, err := LeavePlan(st, testOpts(60000), "10.0.0.2:8083", StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	co := res.Branches[0].Cooperative
	if co.Rounds[0].DelayMs != 60000 {
		t.Errorf("first round delay %d, want the max delay", co.Rounds[0].DelayMs)
	}
	for _, o := range co.Outages {
		if o.Piece == "legacy-0" {
			t.Errorf("legacy-0 counted as not running, but a STOPPED connector has no tasks")
		}
	}
	if iv := outageOf(co, "orders-1"); len(iv) != 1 || iv[0] != (timeline.Interval{FromMs: 0, ToMs: 60000 + testRound}) {
		t.Errorf("orders-1 not running %v", iv)
	}
	checkConservation(t, co, 3, 3)
}

func TestStateFromDatasetWithoutGroup(t *testing.T) {
	d := testDataset(t)
	d.Group = nil
	if _, err := cluster.StateFromDataset(views.Decode(d, store.DecodeOptions{})); !errors.As(err, new(*cluster.StartingStateError)) || !strings.Contains(err.Error(), "synthetic cluster") {
		t.Errorf("want a StartingStateError pointing at a synthetic cluster, got %v", err)
	}
	d.Group = &inspect.GroupDescription{Group: "g", State: "Empty"}
	if _, err := cluster.StateFromDataset(views.Decode(d, store.DecodeOptions{})); err == nil || !strings.Contains(err.Error(), "no members") {
		t.Errorf("empty group: %v", err)
	}
}

// A description that lists a member twice (an edited or corrupt snapshot;
// a broker never does) plans with the member once, in the place of its
// first entry, and says so, where it was a usage error ("already a member")
// before. The repeat's own bytes, here another worker's work, are not read.
func TestStateFromDatasetMemberListedTwice(t *testing.T) {
	d := testDataset(t)
	first := d.Group.Members[0]
	repeat := d.Group.Members[1]
	repeat.MemberID = first.MemberID
	d.Group.Members = append(d.Group.Members, repeat, first)
	st, err := cluster.StateFromDataset(views.Decode(d, store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Workers) != 2 || st.Workers[0].ID != "connect-2-bbbb" || st.Workers[1].ID != "connect-1-aaaa" {
		t.Fatalf("workers %+v, want each member once in the broker's order", st.Workers)
	}
	if got := strings.Join(st.Workers[0].Owned.Connectors, ","); got != "orders" {
		t.Errorf("connect-2-bbbb owns %q: its first entry's work, orders, and not the repeat's", got)
	}
	if notes := strings.Join(st.Notes, "\n"); !strings.Contains(notes, `member "connect-2-bbbb" is listed 3 times in the group description: only its first entry is read`) {
		t.Errorf("notes do not say so: %v", st.Notes)
	}
	res, err := LeavePlan(st, testOpts(60000), "10.0.0.2:8083", StopClean, nil)
	if err != nil {
		t.Fatalf("a plan on it: %v", err)
	}
	checkConservation(t, res.Branches[0].Cooperative, 3, 3)
}

// Member ids that share a bucket of the leader's 16-bucket HashMap are
// walked in the broker's order (assignor.md §6.2), so which of two equally
// loaded workers keeps the extra connector depends on that order alone.
// Both orders are planned: the one listed second loses a connector.
func TestJoinPlanKeepsBrokerOrderWithinABucket(t *testing.T) {
	// Java hash buckets at 16: ...-aaaa and ...-0001 share 15; ...-cccc is 10.
	x, y, z := "connect-10.0.0.1:8083-aaaa", "connect-10.0.0.2:8083-0001", "connect-10.0.0.3:8083-cccc"
	var recs []inspect.Record
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		recs = append(recs,
			configRecord(int64(2*i), "connector-"+name, `{"properties":{"connector.class":"X","tasks.max":"1"}}`),
			configRecord(int64(2*i+1), "commit-"+name, `{"tasks":0}`))
	}
	holds := map[string][]string{x: {"a", "b"}, y: {"c", "d"}, z: {"e"}}
	urls := map[string]string{x: "http://10.0.0.1:8083/", y: "http://10.0.0.2:8083/", z: "http://10.0.0.3:8083/"}
	for _, order := range [][]string{{x, y, z}, {y, x, z}} {
		ds := &inspect.Dataset{Source: "file:s.json", Topics: inspect.DefaultTopicNames(), Records: recs,
			Group: &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned"}}
		for _, id := range order {
			ds.Group.Members = append(ds.Group.Members, member(t, id, urls[id], z, holds[id], nil))
		}
		st, err := cluster.StateFromDataset(views.Decode(ds, store.DecodeOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := JoinPlan(st, testOpts(300000), []string{"connect-10.0.0.4:8083-0000"})
		if err != nil {
			t.Fatal(err)
		}
		var revokedFrom []string
		for _, w := range res.Branches[0].Cooperative.Rounds[0].Workers {
			if len(w.RevokedConnectors) > 0 {
				revokedFrom = append(revokedFrom, w.Worker+": "+strings.Join(w.RevokedConnectors, ","))
			}
		}
		second := strings.TrimSuffix(strings.TrimPrefix(urls[order[1]], "http://"), "/")
		if len(revokedFrom) != 1 || !strings.Contains(revokedFrom[0], second) {
			t.Errorf("broker order %v: round 1 revokes %v, want one connector from %s, the second of the shared bucket", order, revokedFrom, second)
		}
	}
}
