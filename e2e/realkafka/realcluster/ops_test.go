//go:build e2e

package realcluster

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// configsJSON is the part of inspect configs -o json these tests read.
type configsJSON struct {
	Connectors []struct {
		Name        string `json:"name"`
		TargetState string `json:"target_state"`
		TaskCount   *int   `json:"task_count"`
		Tasks       []struct {
			ID string `json:"id"`
		} `json:"tasks"`
	} `json:"connectors"`
	TaskCountRecords map[string]int `json:"task_count_records"`
	RestartRequests  []struct {
		Connector    string `json:"connector"`
		IncludeTasks bool   `json:"include_tasks"`
		OnlyFailed   bool   `json:"only_failed"`
	} `json:"restart_requests"`
	Records struct {
		Read     int `json:"read"`
		Decoded  int `json:"decoded"`
		Problems int `json:"problems"`
	} `json:"records"`
}

type offsetsJSON struct {
	Offsets []struct {
		Connector string         `json:"connector"`
		Partition map[string]any `json:"partition"`
		Offset    map[string]any `json:"offset"`
	} `json:"offsets"`
	Records struct {
		Read       int `json:"read"`
		Tombstones int `json:"tombstones"`
		Problems   int `json:"problems"`
	} `json:"records"`
}

// connectorOperations changes connectors through the REST API, each
// change predicted by the matching plan where one exists, and checks what
// inspect reads afterwards: created, deleted, tasks.max changed (plan
// connector), stopped and resumed, restarted with includeTasks/onlyFailed,
// offsets altered and reset (KIP-875), a cluster-scope logger level. It
// runs on the settled cluster of standardConnectors and returns the task
// counts it leaves.
func connectorOperations(t *testing.T, c *cluster) map[string]int {

	connectorPlan := func(t *testing.T, planArgs []string, change func()) {
		c.t = t
		snap := c.snapshot()
		initial, workerOf := c.initialOwnership(snap)
		p := c.runPlan(append(append([]string{"plan", "connector"}, planArgs...), c.planFlags(snap)...)...)
		change()
		c.predictAndCompare(p, 0, initial, workerOf, piecesExact)
	}
	step := func(name string, f func(t *testing.T)) {
		ok := t.Run(name, func(t *testing.T) { c.t = t; f(t) })
		c.t = t
		if !ok {
			t.FailNow()
		}
	}
	final := map[string]int{"src-a": 1, "src-b": 1, "src-d": 1, "sink-x": 6, "sink-y": 3}

	step("connector created", func(t *testing.T) {
		connectorPlan(t, []string{"--add", "src-d=1"}, func() { c.createSource("src-d", c.group+"-t3", 4) })
	})
	step("connector deleted", func(t *testing.T) {
		connectorPlan(t, []string{"--remove", "src-c"}, func() {
			if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodDelete, "/connectors/src-c", nil, nil); err != nil {
				t.Fatal(err)
			}
		})
	})
	step("tasks.max changed", func(t *testing.T) {
		connectorPlan(t, []string{"--set", "sink-x=6"}, func() {
			c.createSink("sink-x", 6, c.group+"-t0", c.group+"-t1")
		})
	})

	step("stopped then resumed", func(t *testing.T) {
		// A STOPPED connector keeps its connector assignment and has no
		// tasks (its task configs are emptied), as a task count of 0.
		connectorPlan(t, []string{"--set", "src-a=0"}, func() {
			if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodPut, "/connectors/src-a/stop", nil, nil); err != nil {
				t.Fatal(err)
			}
		})
		var cfg configsJSON
		c.cs(&cfg, "inspect", "configs", "--connector", "src-a", "-o", "json")
		if len(cfg.Connectors) != 1 || cfg.Connectors[0].TargetState != "STOPPED" || len(cfg.Connectors[0].Tasks) != 0 {
			t.Fatalf("inspect configs of a stopped src-a: %+v, want STOPPED with no tasks", cfg.Connectors)
		}
		c.checkOffsetOps(t)
		connectorPlan(t, []string{"--set", "src-a=1"}, func() {
			if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodPut, "/connectors/src-a/resume", nil, nil); err != nil {
				t.Fatal(err)
			}
		})
		c.cs(&cfg, "inspect", "configs", "--connector", "src-a", "-o", "json")
		if len(cfg.Connectors) != 1 || cfg.Connectors[0].TargetState != "STARTED" || len(cfg.Connectors[0].Tasks) != 1 {
			t.Fatalf("inspect configs of a resumed src-a: %+v, want STARTED with one task", cfg.Connectors)
		}
		// The order Connect writes: stop = a commit of no tasks, then
		// STOPPED; resume = STARTED first, the task configs and their commit
		// only once the connector runs again (the sandbox follows this).
		recs := c.configRecords()
		stopped := lastIndex(recs, "target-state-src-a", `"STOPPED"`)
		emptied := lastIndex(recs, "commit-src-a", `"tasks":0`)
		started := lastIndex(recs, "target-state-src-a", `"STARTED"`)
		committed := lastIndex(recs, "commit-src-a", "")
		if !(emptied >= 0 && emptied < stopped && stopped < started && started < committed) {
			t.Errorf("config records of src-a: empty commit at %d, STOPPED at %d, STARTED at %d, last commit at %d; want them in that order:%s", emptied, stopped, started, committed, describe(recs, max(emptied, 0)))
		}
	})

	step("restart includeTasks onlyFailed", func(t *testing.T) {
		before := c.members().owned()
		var status struct {
			Connector struct {
				State string `json:"state"`
			} `json:"connector"`
		}
		if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodPost, "/connectors/sink-y/restart?includeTasks=true&onlyFailed=false", nil, &status); err != nil {
			t.Fatal(err)
		}
		if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodPost, "/connectors/src-b/restart?includeTasks=true&onlyFailed=true", nil, nil); err != nil {
			t.Fatal(err)
		}
		var cfg configsJSON
		c.cs(&cfg, "inspect", "configs", "-o", "json")
		got := map[string]string{}
		for _, r := range cfg.RestartRequests {
			got[r.Connector] = fmt.Sprintf("includeTasks=%v onlyFailed=%v", r.IncludeTasks, r.OnlyFailed)
		}
		want := map[string]string{"sink-y": "includeTasks=true onlyFailed=false", "src-b": "includeTasks=true onlyFailed=true"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("inspect configs restart_requests %v, want %v", got, want)
		}
		// A restart request moves nothing: no plan, the same ownership.
		c.settle(time.Minute, 3*time.Second, func(o ownership) error {
			if !o.equal(before) {
				return fmt.Errorf("ownership after restarts%s\nbefore%s", o, before)
			}
			return nil
		})
		c.waitRunning(final)
	})

	step("cluster-scope logger level", func(t *testing.T) {
		var before configsJSON
		c.cs(&before, "inspect", "configs", "-o", "json")
		ns := "org.apache.kafka.connect.file"
		if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodPut, "/admin/loggers/"+ns+"?scope=cluster", map[string]string{"level": "DEBUG"}, nil); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.running() {
			w := w
			c.eventually(time.Minute, w.ID()+" to apply the cluster logger level", func() error {
				var lv struct {
					Level string `json:"level"`
				}
				if err := w.REST(c.ctx(time.Minute), http.MethodGet, "/admin/loggers/"+ns, nil, &lv); err != nil {
					return err
				}
				if lv.Level != "DEBUG" {
					return fmt.Errorf("level %s", lv.Level)
				}
				return nil
			})
		}
		// The level is one more config-topic record, decoded, no problem.
		var after configsJSON
		c.cs(&after, "inspect", "configs", "-o", "json")
		if after.Records.Read != before.Records.Read+1 || after.Records.Decoded != before.Records.Decoded+1 || after.Records.Problems != 0 {
			t.Errorf("config records before %+v, after the logger level %+v: want one more, decoded", before.Records, after.Records)
		}
	})
	return final
}

// checkOffsetOps alters and resets the offsets of the stopped src-a
// (KIP-875) and checks inspect offsets and REST agree after each.
func (c *cluster) checkOffsetOps(t *testing.T) {
	t.Helper()
	var ro restOffsets
	w := c.rest()
	if err := w.RESTRetry(c.ctx(time.Minute), http.MethodGet, "/connectors/src-a/offsets", nil, &ro); err != nil {
		t.Fatal(err)
	}
	if len(ro.Offsets) != 1 {
		t.Fatalf("REST offsets of src-a: %+v, want one partition", ro.Offsets)
	}
	part := ro.Offsets[0].Partition
	body := map[string]any{"offsets": []map[string]any{{"partition": part, "offset": map[string]any{"position": 3}}}}
	if err := w.RESTRetry(c.ctx(time.Minute), http.MethodPatch, "/connectors/src-a/offsets", body, nil); err != nil {
		t.Fatal(err)
	}
	srcA := func() []map[string]any {
		var o offsetsJSON
		c.cs(&o, "inspect", "offsets", "--connector", "src-a", "-o", "json")
		var out []map[string]any
		for _, x := range o.Offsets {
			out = append(out, x.Offset)
		}
		return out
	}
	if got := srcA(); len(got) != 1 || fmt.Sprint(got[0]["position"]) != "3" {
		t.Errorf("inspect offsets after PATCH position 3: %v", got)
	}
	if err := w.RESTRetry(c.ctx(time.Minute), http.MethodDelete, "/connectors/src-a/offsets", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := srcA(); len(got) != 0 {
		t.Errorf("inspect offsets after DELETE (reset): %v, want none", got)
	}
	if err := w.RESTRetry(c.ctx(time.Minute), http.MethodGet, "/connectors/src-a/offsets", nil, &ro); err != nil {
		t.Fatal(err)
	}
	if len(ro.Offsets) != 0 {
		t.Errorf("REST offsets after reset: %+v, want none", ro.Offsets)
	}
}
