package whatif

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

func exampleState(t *testing.T) cluster.State {
	t.Helper()
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := cluster.StateFromDataset(views.Decode(ds, store.DecodeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

var hostPort = regexp.MustCompile(`^10\.0\.1\.1[123]:8083$`)

// Every worker in a plan's JSON carries the HOST:PORT name --worker and
// --order take beside its member id: the starting and final counts, the
// outages, the rounds, the events, the leader; the rolling restart's order
// is given in those names and feeds back into --order; events say their
// kind and worker; the final state lists each worker's pieces. Before, the
// JSON held member ids only and events were prose.
func TestPlanJSONNamesWorkers(t *testing.T) {
	st := exampleState(t)
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: timeline.DefaultRoundTimeMs, SessionTimeoutMs: 10000}
	res, err := RollingRestartPlan(st, opts, 90000, StopCrash, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Assumptions struct {
			LeaderName string `json:"leader_name"`
			Order      []string
		}
		Initial  []timeline.WorkerCount
		Branches []struct {
			Cooperative struct {
				Events  []map[string]any
				Rounds  []struct{ Workers []map[string]any }
				Outages []map[string]any
				Summary struct{ Final []timeline.WorkerCount }
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	named := func(where, name string) {
		if !hostPort.MatchString(name) {
			t.Errorf("%s: name %q is not the worker's HOST:PORT", where, name)
		}
	}
	named("assumptions.leader_name", doc.Assumptions.LeaderName)
	if len(doc.Assumptions.Order) != 3 {
		t.Fatalf("assumptions.order %v", doc.Assumptions.Order)
	}
	for _, n := range doc.Assumptions.Order {
		named("assumptions.order", n)
	}
	again, err := RollingRestartPlan(st, opts, 90000, StopCrash, doc.Assumptions.Order)
	if err != nil || !slices.Equal(again.Assumptions.Order, doc.Assumptions.Order) {
		t.Errorf("order fed back to --order: %v, %v", err, again.Assumptions.Order)
	}
	for _, w := range doc.Initial {
		named("initial", w.Name)
	}
	co := doc.Branches[0].Cooperative
	tasks := 0
	for _, w := range co.Summary.Final {
		named("final", w.Name)
		if len(w.OwnedTasks) != w.Tasks || len(w.OwnedConnectors) != w.Connectors {
			t.Errorf("final %s: %d tasks listed for %d, %d connectors for %d", w.Name, len(w.OwnedTasks), w.Tasks, len(w.OwnedConnectors), w.Connectors)
		}
		tasks += len(w.OwnedTasks)
	}
	if tasks != 8 {
		t.Errorf("final lists %d tasks, the cluster has 8", tasks)
	}
	for _, o := range co.Outages {
		named("outages", o["name"].(string))
	}
	for _, r := range co.Rounds {
		for _, w := range r.Workers {
			named("rounds.workers", w["name"].(string))
		}
	}
	kinds := []string{}
	for _, ev := range co.Events {
		kinds = append(kinds, ev["kind"].(string))
		if ev["worker"] == nil {
			t.Errorf("event without worker: %v", ev)
			continue
		}
		named("events", ev["name"].(string))
	}
	if !slices.Contains(kinds, "crash") || !slices.Contains(kinds, "notice") || !slices.Contains(kinds, "return") {
		t.Errorf("event kinds %v", kinds)
	}
}
