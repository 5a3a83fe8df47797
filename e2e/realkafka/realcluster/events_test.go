//go:build e2e

package realcluster

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// exactness says how far a real event must match its plan.
type exactness int

const (
	// piecesExact: every worker ends with exactly the predicted pieces.
	piecesExact exactness = iota
	// countsExact: every worker ends with the predicted number of
	// connectors and tasks; which pieces depends on what the preview
	// cannot see (the README names it at each use).
	countsExact
)

// predictAndCompare waits for the cluster to settle and compares the
// outcome with branch of the plan.
func (c *cluster) predictAndCompare(p planJSON, branch int, initial map[string][]string, workerOf map[string]string, how exactness) {
	c.t.Helper()
	if err := c.tryPredictAndCompare(p, branch, initial, workerOf, how); err != nil {
		c.t.Fatal(err)
	}
}

// unplannedRounds says the group went through more rebalances than the
// plan has and settled elsewhere: something the plan was not asked about
// happened too (a loaded machine's worker missing its session timeout and
// rejoining under a new member id, say), so the comparison says nothing
// about the prediction.
type unplannedRounds struct {
	planned int
	real    []int // generations the workers logged since the snapshot
	detail  string
}

func (u *unplannedRounds) Error() string {
	return fmt.Sprintf("the group went through %d rebalances (generations %v) where the plan has %d, and settled elsewhere:%s", len(u.real), u.real, u.planned, u.detail)
}

// tryPredictAndCompare is predictAndCompare, returning an *unplannedRounds
// instead of failing when the group did more than the plan. Any other
// difference fails the test once the plan's end and two minutes passed.
func (c *cluster) tryPredictAndCompare(p planJSON, branch int, initial map[string][]string, workerOf map[string]string, how exactness) error {
	c.t.Helper()
	tl, err := p.timeline(branch)
	if err != nil {
		c.t.Fatal(err)
	}
	if len(tl.Summary.NotRunningAtEnd) > 0 {
		c.t.Fatalf("plan leaves %v not running at its end; the comparisons need a plan that settles", tl.Summary.NotRunningAtEnd)
	}
	want, err := tl.final(initial, workerOf)
	if err != nil {
		c.t.Fatal(err)
	}
	c.explain = func() string {
		return "\nmembers at the snapshot, in the broker's order: " + strings.Join(c.snapOrder, ", ") +
			"\nrounds the plan predicted:" + tl.describe(workerOf) +
			"\nrounds the workers logged since the snapshot:" + c.roundsSince(c.snapAt)
	}
	defer func() { c.explain = nil }()
	const quiet = 4 * time.Second
	var countedAt time.Time // the workers' logs are read at most once per quiet
	wait := time.Duration(tl.Summary.EndMs)*time.Millisecond + 2*time.Minute
	m, err := c.settleUnless(wait, quiet, func(got ownership) error {
		var err error
		switch {
		case how == piecesExact && !got.equal(want):
			err = fmt.Errorf("owned%s\nplan predicted%s", got, want)
		case how == countsExact && !got.sameCounts(want):
			err = fmt.Errorf("owned%s\nplan predicted (counts)%s", got, want)
		default:
			return nil
		}
		if time.Since(countedAt) >= quiet {
			countedAt = time.Now()
			if gens := c.generationsSince(c.snapAt); len(gens) > len(tl.Rounds) {
				return stopWaiting{&unplannedRounds{planned: len(tl.Rounds), real: gens, detail: "\n" + err.Error() + c.explain()}}
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	// REST agrees with the group about where things run (the status
	// topic follows the group a moment later).
	got := m.owned()
	agrees := func() error {
		if rest := restOwnership(c.restConnectors()); !rest.equal(got) {
			return fmt.Errorf("after settling, REST status%s\ndiffers from inspect members%s", rest, got)
		}
		return nil
	}
	if !c.restMayLag {
		c.eventually(30*time.Second, "REST status to agree with inspect members", agrees)
	} else {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(500 * time.Millisecond) {
			err := agrees()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				c.t.Logf("%v\n(logged, not failed: the group's ownership is the comparison; see restMayLag)", err)
				break
			}
		}
	}
	c.t.Logf("settled as predicted (%s; pieces equal too: %v) after %d rebalances (plan: %d): %s", map[exactness]string{piecesExact: "pieces", countsExact: "counts"}[how], got.equal(want), len(c.generationsSince(c.snapAt)), len(tl.Rounds), got)
	return nil
}

// joinMatchesPlan snapshots the cluster, starts one worker of version and
// compares the group, piece by piece, with plan join. When the group did
// more than the join (unplannedRounds), the join is repeated once with
// another worker from a fresh snapshot, and that one must match.
func (c *cluster) joinMatchesPlan(version string) {
	c.t.Helper()
	for attempt := 1; ; attempt++ {
		snap := c.snapshot()
		initial, workerOf := c.initialOwnership(snap)
		w := c.addWorkersOf(version, 1, nil)[0]
		id := c.liveMemberID(w)
		workerOf[id] = w.ID()
		p := c.runPlan(append([]string{"plan", "join", "--add", id}, c.planFlags(snap)...)...)
		err := c.tryPredictAndCompare(p, 0, initial, workerOf, piecesExact)
		if err == nil {
			return
		}
		if _, ok := err.(*unplannedRounds); !ok || attempt > 1 {
			c.t.Fatal(err)
		}
		c.t.Logf("join of %s not compared: %v\nrepeating the join once with another worker", w.ID(), err)
		c.settle(2*time.Minute, 3*time.Second, nil)
	}
}

// liveMemberID is the member id of a worker in the live group.
func (c *cluster) liveMemberID(w *realkafka.Worker) string {
	c.t.Helper()
	for _, mb := range c.members().Members {
		if workerID(mb.URL) == w.ID() {
			return mb.MemberID
		}
	}
	c.t.Fatalf("worker %s is not in group %s", w.ID(), c.group)
	return ""
}

// leaderWorker is the running worker that leads the group, and one that
// does not.
func (c *cluster) leaderAndOther() (leader, other *realkafka.Worker) {
	c.t.Helper()
	m := c.members()
	if m.Leader == nil {
		c.t.Fatal("the group has no leader")
	}
	lid := m.urlOfMember()[*m.Leader]
	for _, w := range c.running() {
		if w.ID() == lid {
			leader = w
		} else if other == nil {
			other = w
		}
	}
	if leader == nil || other == nil {
		c.t.Fatalf("leader %s and another worker not found among %d running", lid, len(c.running()))
	}
	return leader, other
}

func (c *cluster) planFlags(snapshot string) []string {
	return []string{"--from", snapshot, "--max-delay", fmt.Sprint(c.props["scheduled.rebalance.max.delay.ms"]),
		"--session-timeout", fmt.Sprint(sessionTimeoutMs)}
}

func branchNamed(t testing.TB, p planJSON, word string) int {
	t.Helper()
	for i, b := range p.Branches {
		if strings.Contains(b.Name, word) && !strings.Contains(b.Name, "not") {
			return i
		}
	}
	t.Fatalf("plan has no branch whose name says %q", word)
	return 0
}
