//go:build e2e

package realcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// TestExactlyOnceSource runs a cluster with exactly.once.source.support=
// enabled: sources write their offsets in transactions and the leader
// writes task-count records. connectscope, given a worker's file, reads
// read_committed as the workers do; inspect configs shows the task-count
// records and inspect offsets agrees with REST.
func TestExactlyOnceSource(t *testing.T) {
	c := newCluster(t, realkafka.Newest4x, realkafka.Newest4x, 2, map[string]string{
		"scheduled.rebalance.max.delay.ms": "5000",
		"exactly.once.source.support":      "enabled",
	})
	c.createSource("src-a", c.group+"-t0", 6)
	c.createSource("src-b", c.group+"-t1", 9)
	c.createSink("sink-x", 2, c.group+"-t0", c.group+"-t1")
	c.waitRunning(map[string]int{"src-a": 1, "src-b": 1, "sink-x": 2})
	c.settle(2*time.Minute, 3*time.Second, nil)

	file := filepath.Join(t.TempDir(), "worker.properties")
	var b strings.Builder
	for k, v := range c.workers[0].Props() {
		fmt.Fprintf(&b, "%s=%s\n", k, v)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	var cfg configsJSON
	c.cs(&cfg, "--worker-config", file, "inspect", "configs", "-o", "json")
	if cfg.TaskCountRecords["src-a"] != 1 || cfg.TaskCountRecords["src-b"] != 1 {
		t.Errorf("task_count_records %v, want src-a and src-b with 1 task each (the sink has none)", cfg.TaskCountRecords)
	}
	if _, ok := cfg.TaskCountRecords["sink-x"]; ok {
		t.Errorf("task_count_records %v has the sink; Connect writes them for sources only", cfg.TaskCountRecords)
	}
	if cfg.Records.Problems != 0 {
		t.Errorf("inspect configs read %d problems", cfg.Records.Problems)
	}

	// Offsets: committed in transactions, read read_committed (the worker
	// file says enabled), the same as REST.
	wantPos := map[string]string{"src-a": "", "src-b": ""}
	for name := range wantPos {
		var ro restOffsets
		c.eventually(time.Minute, name+" to commit its offsets", func() error {
			if err := c.rest().REST(c.ctx(time.Minute), "GET", "/connectors/"+name+"/offsets", nil, &ro); err != nil {
				return err
			}
			if len(ro.Offsets) != 1 {
				return fmt.Errorf("REST shows %d offsets", len(ro.Offsets))
			}
			return nil
		})
		wantPos[name] = fmt.Sprint(ro.Offsets[0].Offset["position"])
	}
	var offs offsetsJSON
	c.cs(&offs, "--worker-config", file, "inspect", "offsets", "-o", "json")
	got := map[string]string{}
	for _, o := range offs.Offsets {
		got[o.Connector] = fmt.Sprint(o.Offset["position"])
	}
	if fmt.Sprint(got) != fmt.Sprint(wantPos) || offs.Records.Problems != 0 {
		t.Errorf("inspect offsets (read_committed) %v with %d problems, REST %v", got, offs.Records.Problems, wantPos)
	}
	c.checkOffsetsAgree(c.restConnectors())
}
