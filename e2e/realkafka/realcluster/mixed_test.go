//go:build e2e

package realcluster

import (
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// TestMixedVersions runs one group of 3.9.x and 4.x workers on a 4.x
// broker: inspect agrees with REST, every member's metadata decodes, and a
// 4.x worker joining ends as plan join predicts, piece by piece.
func TestMixedVersions(t *testing.T) {
	c := newCluster(t, realkafka.Newest4x, realkafka.Newest39, 2, map[string]string{"scheduled.rebalance.max.delay.ms": "5000"})
	c.addWorkersOf(realkafka.Newest4x, 1, nil)
	tasks := c.standardConnectors()
	m := c.settle(2*time.Minute, 3*time.Second, nil)
	for _, mb := range m.Members {
		t.Logf("member %s client.id %s", mb.URL, mb.ClientID)
		if mb.Problem != nil || mb.Version != 2 {
			t.Errorf("member %s: metadata version %d, problem %v; want version 2 (sessioned) decoded", mb.MemberID, mb.Version, mb.Problem)
		}
	}
	c.checkInspectAgreesWithREST(tasks)

	c.joinMatchesPlan(realkafka.Newest4x)
}
