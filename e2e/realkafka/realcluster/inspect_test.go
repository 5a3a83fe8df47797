//go:build e2e

package realcluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// standardConnectors creates three sources (one task each) and two sinks
// (4 and 3 tasks: sink tasks beyond the topics' partitions idle but are
// real consumer-group members) and returns the task counts.
func (c *cluster) standardConnectors() map[string]int {
	c.t.Helper()
	for i, n := range []string{"src-a", "src-b", "src-c"} {
		c.createSource(n, c.group+"-t"+fmt.Sprint(i), 5+i)
	}
	c.createSink("sink-x", 4, c.group+"-t0", c.group+"-t1")
	c.createSink("sink-y", 3, c.group+"-t2")
	tasks := map[string]int{"src-a": 1, "src-b": 1, "src-c": 1, "sink-x": 4, "sink-y": 3}
	c.waitRunning(tasks)
	return tasks
}

// TestInspectAgreesWithREST compares every inspect command with the REST
// API on 4.4.0 and 3.9.2; on 4.4.0 the cluster then goes through the
// connector operations (ops_test.go) and is compared again.
func TestInspectAgreesWithREST(t *testing.T) {
	for _, v := range realkafka.Versions() {
		t.Run(v, func(t *testing.T) {
			c := newCluster(t, v, v, 3, map[string]string{"scheduled.rebalance.max.delay.ms": "5000"})
			tasks := c.standardConnectors()
			c.settle(2*time.Minute, 3*time.Second, nil)
			c.checkInspectAgreesWithREST(tasks)
			if v != realkafka.Newest4x {
				return
			}
			c.checkRunbook()
			// The same cluster goes on through connector operations, and
			// inspect must still agree with REST after all of them.
			tasks = connectorOperations(t, c)
			c.t = t
			c.settle(2*time.Minute, 3*time.Second, nil)
			c.checkInspectAgreesWithREST(tasks)
		})
	}
}

// checkInspectAgreesWithREST compares every inspect command with what the
// workers' REST API says about the same cluster. Both read the internal
// topics asynchronously (a worker applies a deletion's tombstones a moment
// after REST answers), so the whole comparison is repeated until it holds
// or a minute has passed; a failure shows the last round's differences.
func (c *cluster) checkInspectAgreesWithREST(tasks map[string]int) {
	c.t.Helper()
	var rcs map[string]restConnector
	c.eventually(time.Minute, "inspect to agree with REST", func() error {
		rcs = c.restConnectors()
		return c.inspectVsREST(tasks, rcs)
	})
	// A sink task moved while the connectors were being created can leave
	// its old consumer in the sink group until the group drops it (a CI
	// run saw sink-y's group list 6 consumers for 3 tasks for over a
	// minute). inspect sinks shows the group as it is, so the comparison
	// of its tasks with REST's waits for the groups to settle.
	c.sinkGroupsSettled(2 * time.Minute)
	c.checkOffsetsAgree(rcs)
}

// differences collects what one comparison found.
type differences []string

func (d *differences) add(format string, args ...any) { *d = append(*d, fmt.Sprintf(format, args...)) }

func (d differences) err() error {
	if len(d) == 0 {
		return nil
	}
	return fmt.Errorf("%d differences:\n%s", len(d), strings.Join(d, "\n"))
}

// inspectVsREST is one round of checkInspectAgreesWithREST.
func (c *cluster) inspectVsREST(tasks map[string]int, rcs map[string]restConnector) error {
	c.t.Helper()
	var diffs differences
	if got := slices.Sorted(maps.Keys(rcs)); !slices.Equal(got, slices.Sorted(maps.Keys(tasks))) {
		return fmt.Errorf("REST lists %v, want %v", got, slices.Sorted(maps.Keys(tasks)))
	}

	// inspect connectors: one line per connector, as REST sees it.
	var conns struct {
		Connectors []struct {
			Name            string `json:"name"`
			Configured      bool   `json:"configured"`
			Class           string `json:"class"`
			Type            string `json:"type"`
			TargetState     string `json:"target_state"`
			State           string `json:"state"`
			WorkerID        string `json:"worker_id"`
			TasksConfigured int    `json:"tasks_configured"`
			TasksCommitted  int    `json:"tasks_committed"`
			TasksRunning    int    `json:"tasks_running"`
			TasksFailed     int    `json:"tasks_failed"`
			Consistent      bool   `json:"consistent"`
		} `json:"connectors"`
	}
	c.cs(&conns, "inspect", "connectors", "-o", "json")
	// A deleted connector can leave statuses behind for good: Connect
	// writes the deletion's tombstones, then a task that was still
	// stopping writes UNASSIGNED after them (seen on 4.4.0). REST lists
	// configured connectors only; inspect lists such leftovers too, marked
	// as having no config, and only those may be missing from REST.
	leftover := map[string]bool{}
	configured := 0
	for _, ic := range conns.Connectors {
		if ic.Configured {
			configured++
			continue
		}
		leftover[ic.Name] = true
		if _, ok := rcs[ic.Name]; ok || ic.Class != "" || ic.TasksCommitted != 0 || ic.TasksRunning != 0 {
			diffs.add("connector %s: inspect connectors says it has no config (class %q, %d tasks committed, %d running), but REST lists it: %v", ic.Name, ic.Class, ic.TasksCommitted, ic.TasksRunning, ok)
		}
	}
	if configured != len(rcs) {
		diffs.add("inspect connectors lists %d configured connectors, REST %d", configured, len(rcs))
	}
	for _, ic := range conns.Connectors {
		if leftover[ic.Name] {
			continue
		}
		rc, ok := rcs[ic.Name]
		if !ok {
			diffs.add("inspect connectors lists %s, REST does not", ic.Name)
			continue
		}
		running := 0
		for _, tk := range rc.Status.Tasks {
			if tk.State == "RUNNING" {
				running++
			}
		}
		want := fmt.Sprintf("class=%s type=%s state=%s worker=%s tasks=%d running=%d", rc.Info.Config["connector.class"], rc.Status.Type, rc.Status.Connector.State, rc.Status.Connector.WorkerID, len(rc.Info.Tasks), running)
		got := fmt.Sprintf("class=%s type=%s state=%s worker=%s tasks=%d running=%d", ic.Class, ic.Type, ic.State, ic.WorkerID, ic.TasksCommitted, ic.TasksRunning)
		if got != want {
			diffs.add("connector %s:\n  inspect connectors %s\n  REST               %s", ic.Name, got, want)
		}
		if ic.TargetState != "STARTED" || !ic.Consistent || ic.TasksFailed != 0 || ic.TasksConfigured != tasks[ic.Name] {
			diffs.add("connector %s: inspect connectors says target %s consistent %v failed %d configured %d, want STARTED true 0 %d", ic.Name, ic.TargetState, ic.Consistent, ic.TasksFailed, ic.TasksConfigured, tasks[ic.Name])
		}
	}

	// inspect configs: connector configs and task configs.
	var cfgs struct {
		Connectors []struct {
			Name        string            `json:"name"`
			Config      map[string]string `json:"config"`
			TargetState string            `json:"target_state"`
			TaskCount   *int              `json:"task_count"`
			Tasks       []struct {
				ID     string            `json:"id"`
				Config map[string]string `json:"config"`
			} `json:"tasks"`
		} `json:"connectors"`
		SessionKey *struct {
			Algorithm string `json:"algorithm"`
			Key       string `json:"key"`
		} `json:"session_key"`
	}
	c.cs(&cfgs, "inspect", "configs", "-o", "json")
	if len(cfgs.Connectors) != len(rcs) {
		diffs.add("inspect configs lists %d connectors, REST %d", len(cfgs.Connectors), len(rcs))
	}
	for _, ic := range cfgs.Connectors {
		rc, ok := rcs[ic.Name]
		if !ok {
			diffs.add("inspect configs lists %s, REST does not", ic.Name)
			continue
		}
		if !reflect.DeepEqual(ic.Config, rc.Info.Config) {
			diffs.add("connector %s config:\n  inspect %v\n  REST    %v", ic.Name, ic.Config, rc.Info.Config)
		}
		var restTasks []struct {
			ID struct {
				Connector string `json:"connector"`
				Task      int    `json:"task"`
			} `json:"id"`
			Config map[string]string `json:"config"`
		}
		if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodGet, "/connectors/"+ic.Name+"/tasks", nil, &restTasks); err != nil {
			return err
		}
		if len(restTasks) != len(ic.Tasks) || ic.TaskCount == nil || *ic.TaskCount != len(restTasks) {
			diffs.add("connector %s: inspect configs has %d tasks (task_count %v), REST %d", ic.Name, len(ic.Tasks), ic.TaskCount, len(restTasks))
			continue
		}
		for i, rt := range restTasks {
			id := fmt.Sprintf("%s-%d", rt.ID.Connector, rt.ID.Task)
			if ic.Tasks[i].ID != id || !reflect.DeepEqual(ic.Tasks[i].Config, rt.Config) {
				diffs.add("task %s: inspect configs %s %v, REST %v", id, ic.Tasks[i].ID, ic.Tasks[i].Config, rt.Config)
			}
		}
	}
	// Distributed workers with the default connect.protocol (sessioned)
	// write a session key; it is never shown.
	if cfgs.SessionKey == nil || cfgs.SessionKey.Key != "[redacted]" || cfgs.SessionKey.Algorithm == "" {
		diffs.add("session key %+v, want one with its algorithm and the key redacted", cfgs.SessionKey)
	}

	// inspect status: each connector's and task's state and worker.
	var st struct {
		Connectors []struct {
			Name     string `json:"name"`
			State    string `json:"state"`
			WorkerID string `json:"worker_id"`
		} `json:"connectors"`
		Tasks []struct {
			Connector string `json:"connector"`
			Task      int    `json:"task"`
			State     string `json:"state"`
			WorkerID  string `json:"worker_id"`
		} `json:"tasks"`
	}
	c.cs(&st, "inspect", "status", "-o", "json")
	gotStatus, wantStatus := map[string]string{}, map[string]string{}
	for _, s := range st.Connectors {
		if !leftover[s.Name] {
			gotStatus[s.Name] = s.State + "@" + s.WorkerID
		}
	}
	for _, s := range st.Tasks {
		if leftover[s.Connector] {
			if s.State == "RUNNING" {
				diffs.add("task %s-%d of %s, which has no config, is RUNNING", s.Connector, s.Task, s.Connector)
			}
			continue
		}
		gotStatus[fmt.Sprintf("%s-%d", s.Connector, s.Task)] = s.State + "@" + s.WorkerID
	}
	for name, rc := range rcs {
		wantStatus[name] = rc.Status.Connector.State + "@" + rc.Status.Connector.WorkerID
		for _, tk := range rc.Status.Tasks {
			wantStatus[fmt.Sprintf("%s-%d", name, tk.ID)] = tk.State + "@" + tk.WorkerID
		}
	}
	if !maps.Equal(gotStatus, wantStatus) {
		diffs.add("status:\n  inspect %v\n  REST    %v", gotStatus, wantStatus)
	}

	// inspect members: the members are the running workers (GET / answers
	// on each), and what they own is where REST says things run.
	m := c.members()
	if m.Group != c.group || m.State != "Stable" || m.Protocol != "sessioned" || m.Leader == nil {
		diffs.add("inspect members: group %s state %s protocol %s leader %v, want %s Stable sessioned with a leader", m.Group, m.State, m.Protocol, m.Leader, c.group)
	}
	for _, w := range c.running() {
		var root struct {
			Version string `json:"version"`
		}
		if err := w.REST(c.ctx(time.Minute), http.MethodGet, "/", nil, &root); err != nil {
			return err
		}
		if root.Version != w.Version() {
			diffs.add("worker %s: GET / version %s, want %s", w.ID(), root.Version, w.Version())
		}
	}
	if got, want := m.owned(), restOwnership(rcs); !got.equal(want) {
		diffs.add("ownership:\n inspect members%s\n REST status%s", got, want)
	}
	if len(diffs) == 0 && len(leftover) > 0 {
		c.t.Logf("statuses left by deleted connectors, listed by inspect as having no config: %v", slices.Sorted(maps.Keys(leftover)))
	}
	return diffs.err()
}

// restOffsets is GET /connectors/NAME/offsets (KIP-875).
type restOffsets struct {
	Offsets []struct {
		Partition map[string]any `json:"partition"`
		Offset    map[string]any `json:"offset"`
	} `json:"offsets"`
}

// checkOffsetsAgree compares inspect offsets with GET
// /connectors/NAME/offsets for sources, and inspect sinks' committed
// offsets with the same endpoint for sinks (KIP-875, Connect 3.5+).
func (c *cluster) checkOffsetsAgree(rcs map[string]restConnector) {
	t := c.t
	t.Helper()
	key := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	c.eventually(time.Minute, "offsets to agree", func() error {
		var offs struct {
			Offsets []struct {
				Connector string         `json:"connector"`
				Partition map[string]any `json:"partition"`
				Offset    map[string]any `json:"offset"`
			} `json:"offsets"`
		}
		c.cs(&offs, "inspect", "offsets", "-o", "json")
		var sinks struct {
			Sinks []struct {
				Connector  string `json:"connector"`
				Group      string `json:"group"`
				State      string `json:"state"`
				Partitions []struct {
					Topic     string `json:"topic"`
					Partition int    `json:"partition"`
					Committed *int64 `json:"committed"`
				} `json:"partitions"`
				Tasks []struct {
					ID string `json:"id"`
				} `json:"tasks"`
			} `json:"sinks"`
		}
		c.cs(&sinks, "inspect", "sinks", "-o", "json")
		got, want := map[string]string{}, map[string]string{}
		for _, o := range offs.Offsets {
			// A deleted connector's offsets stay in the topic; REST has no
			// connector to ask about them.
			if _, ok := rcs[o.Connector]; ok {
				got[o.Connector+" "+key(o.Partition)] = key(o.Offset)
			}
		}
		for _, s := range sinks.Sinks {
			if s.Group != "connect-"+s.Connector {
				return fmt.Errorf("sink %s: group %s, want connect-%s", s.Connector, s.Group, s.Connector)
			}
			if n := len(rcs[s.Connector].Status.Tasks); len(s.Tasks) != n {
				return fmt.Errorf("sink %s: inspect sinks shows %d tasks in its group, REST %d", s.Connector, len(s.Tasks), n)
			}
			for _, p := range s.Partitions {
				if p.Committed != nil {
					got[s.Connector+" "+key(map[string]any{"kafka_topic": p.Topic, "kafka_partition": p.Partition})] = key(map[string]any{"kafka_offset": *p.Committed})
				}
			}
		}
		names := slices.Sorted(maps.Keys(rcs))
		for _, name := range names {
			var ro restOffsets
			if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodGet, "/connectors/"+name+"/offsets", nil, &ro); err != nil {
				return err
			}
			for _, o := range ro.Offsets {
				// JSON numbers decode as float64 on both sides; re-encode
				// through the same path so 3 and 3.0 compare equal.
				want[name+" "+key(o.Partition)] = key(o.Offset)
			}
		}
		if len(want) == 0 {
			return fmt.Errorf("REST shows no offsets yet")
		}
		if !maps.Equal(got, want) {
			return fmt.Errorf("offsets:\n  inspect %v\n  REST    %v", sortedMap(got), sortedMap(want))
		}
		return nil
	})
}

func sortedMap(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
