package sandbox

import (
	"context"
	"testing"
)

// When an eager worker joins a cooperative group, the group switches to
// eager in that very round: the cooperative members joined without
// stopping anything, so what the eager assignment does not give them back
// must stop then. Before, it kept running untracked (a sink task's consumer
// stayed in its group for ever, and once its worker stopped, `wait` never
// returned).
func TestDowngradeToEagerStopsWhatMoved(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "sessioned", "sessioned", "sessioned")
	addConnectors(t, c,
		ConnectorSpec{Name: "orders", Tasks: 3},
		ConnectorSpec{Name: "search", Kind: KindSink, Tasks: 3},
	)
	waitStable(t, c)
	addWorkers(t, c, "eager")
	waitStable(t, c) // one consumer per sink task, no zombie left behind
	if p := readLive(t, c).ds.Group.Protocol; p != "default" {
		t.Fatalf("group protocol %q, want default", p)
	}
	// Stopping the cooperative workers stops what they run; nothing they
	// ran untracked may be left in a sink group.
	for _, w := range []string{"worker-1", "worker-2"} {
		if err := c.StopWorker(context.Background(), w); err != nil {
			t.Fatal(err)
		}
		waitStable(t, c)
	}
	if u := union(ownedByWorker(c)); len(u) != len(allPieces(c)) {
		t.Errorf("workers own %v, configured %v", u, allPieces(c))
	}
}

// Under eager every worker stops everything before it rejoins; a connector
// deleted meanwhile must lose its statuses (tombstones), as it does under
// the cooperative protocols, not be left behind as UNASSIGNED or RUNNING.
func TestEagerRemoveDeletesStatuses(t *testing.T) {
	t.Parallel() // owns its cluster
	c := startTest(t)
	addWorkers(t, c, "eager", "eager")
	addConnectors(t, c, ConnectorSpec{Name: "keep", Tasks: 2}, ConnectorSpec{Name: "gone", Tasks: 3})
	waitStable(t, c)
	if err := c.RemoveConnector(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	waitStable(t, c)
	v := readLive(t, c)
	for _, s := range v.status.Connectors {
		if s.Name == "gone" {
			t.Errorf("deleted connector still has a status: %+v", s)
		}
	}
	kept := 0
	for _, s := range v.status.Tasks {
		switch s.Connector {
		case "gone":
			t.Errorf("deleted connector's task still has a status: %+v", s)
		case "keep":
			kept++
		}
	}
	if kept != 2 {
		t.Errorf("%d task statuses of the kept connector, want 2", kept)
	}
}
