package commands

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/detail"
	"github.com/connectscope/connectscope/inspect/diff"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestInspectConnectorLive describes connectors of a kfake cluster with two
// Connect members and a sink group: owners from the group's assignments,
// offsets from the offsets topic, the sink's group with its lag.
func TestInspectConnectorLive(t *testing.T) {
	t.Parallel() // owns its broker
	c := liveCluster(t)
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "connector", "-o", "json", "src")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var src detail.Connector
	if err := json.Unmarshal([]byte(stdout), &src); err != nil {
		t.Fatal(err)
	}
	if src.State == nil || *src.State != "RUNNING" || src.Owner == nil || len(src.Tasks) != 2 || len(src.Offsets) != 2 {
		t.Fatalf("src: %s", stdout)
	}
	owner := *src.Owner
	if owner != "10.0.0.1:8083" && owner != "10.0.0.2:8083" {
		t.Errorf("owner %q is not a member's HOST:PORT", owner)
	}
	for _, task := range src.Tasks {
		if task.Owner == nil || *task.Owner != owner {
			t.Errorf("task %s owned by %v, want %s (the leader gives src whole to one worker)", task.ID, task.Owner, owner)
		}
	}
	if *src.Tasks[1].State != "FAILED" || src.Tasks[1].Trace == nil || !strings.Contains(*src.Tasks[1].Trace, "boom") {
		t.Errorf("src-1: %+v", src.Tasks[1])
	}

	stdout, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "connector", "-o", "json", "snk")
	if code != 0 {
		t.Fatalf("snk: exit %d: %s", code, stderr)
	}
	var snk detail.Connector
	if err := json.Unmarshal([]byte(stdout), &snk); err != nil {
		t.Fatal(err)
	}
	if snk.SinkGroup == nil || snk.SinkGroup.Group != "connect-snk" || len(snk.SinkGroup.Partitions) != 3 {
		t.Fatalf("snk sink group: %s", stdout)
	}

	_, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "connector", "nosuch")
	if code != ExitNotFound || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `connector "nosuch" not found`) {
		t.Errorf("nosuch: exit %d, stderr %q", code, stderr)
	}
}

// TestDiffLive compares a snapshot with the cluster it was taken from:
// equal until a task's status changes, then exactly that change.
func TestDiffLive(t *testing.T) {
	t.Parallel() // owns its broker
	c := liveCluster(t)
	snap := filepath.Join(t.TempDir(), "before.json")
	if _, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "snapshot", "--file", snap); code != 0 {
		t.Fatalf("snapshot: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "diff", "--live", "-o", "json", snap)
	if code != 0 {
		t.Fatalf("diff --live of a fresh snapshot: exit %d: %s\n%s", code, stderr, stdout)
	}
	c.ProduceKeyed(t, &kgo.Record{Topic: kafkatest.StatusTopic, Partition: -1, Key: []byte("status-task-src-1"),
		Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"10.0.0.1:8083","generation":4}`)})
	stdout, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "diff", "--live", "-o", "json", snap)
	if code != 1 || !strings.Contains(stderr, "differ") {
		t.Fatalf("after a status change: exit %d: %s", code, stderr)
	}
	var res diff.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Changes != 1 || len(res.Tasks) != 1 || res.Tasks[0].ID != "src-1" || *res.Tasks[0].State.Before != "FAILED" ||
		*res.Tasks[0].State.After != "RUNNING" || *res.Tasks[0].Worker.After != "10.0.0.1:8083" {
		t.Errorf("diff: %s", stdout)
	}
	if !strings.HasPrefix(res.After.Source, "kafka:") || res.Before.Source != "file:"+snap {
		t.Errorf("sides: %+v / %+v", res.Before, res.After)
	}
}
