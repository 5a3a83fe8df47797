package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
)

// Without --max-delay or a worker file, the last event's plan takes the
// delay a clean stop shows: here a worker of the example stops cleanly and
// its work runs elsewhere 40 s later, so the plan holds it 40 s, and only
// the session timeout is a default assumed.
func TestRebalancesLearnsDelay(t *testing.T) {
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	type state struct {
		key, worker string
		running     bool
	}
	last := map[string]state{}
	var at int64
	var gen int
	for _, r := range ds.Records {
		var s struct {
			State      string `json:"state"`
			WorkerID   string `json:"worker_id"`
			Generation int    `json:"generation"`
		}
		if r.Topic != ds.Topics.Status || json.Unmarshal(r.Value, &s) != nil || s.WorkerID == "" {
			continue
		}
		last[string(r.Key)] = state{string(r.Key), s.WorkerID, s.State == "RUNNING"}
		at, gen = max(at, r.Timestamp), max(gen, s.Generation)
	}
	var keys []string
	for k := range last {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	gone, other := "", ""
	for _, k := range keys {
		if s := last[k]; s.running && gone == "" {
			gone = s.worker
		} else if s.running && s.worker != gone {
			other = s.worker
		}
	}
	if gone == "" || other == "" {
		t.Fatalf("the example has no two workers running work: %v", last)
	}
	add := func(key, state, worker string, g int, ms int64) {
		ds.Records = append(ds.Records, inspect.Record{Topic: ds.Topics.Status, Timestamp: ms, Key: []byte(key),
			Value: []byte(fmt.Sprintf(`{"state":%q,"trace":null,"worker_id":%q,"generation":%d}`, state, worker, g))})
	}
	for _, k := range keys {
		if s := last[k]; s.running && s.worker == gone {
			add(k, "UNASSIGNED", gone, gen+1, at+1000)
			add(k, "RUNNING", other, gen+3, at+41000)
		}
	}
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out, Err: &bytes.Buffer{}}, cli.Globals{Output: "json"}).WithDataset(ds)
	if err := runRebalances(e, &RebalancesOptions{}); err != nil {
		t.Fatal(err)
	}
	var res struct {
		LastEvent struct {
			Kind             string   `json:"kind"`
			Worker           string   `json:"worker"`
			ElsewhereAfterMs *int64   `json:"elsewhere_after_ms"`
			DefaultsAssumed  []string `json:"defaults_assumed"`
			Notes            []string `json:"notes"`
		} `json:"last_event"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	ev := res.LastEvent
	notes := strings.Join(ev.Notes, "\n")
	if ev.Kind != "stop" || ev.Worker != gone || ev.ElsewhereAfterMs == nil || *ev.ElsewhereAfterMs != 40000 ||
		strings.Join(ev.DefaultsAssumed, ",") != "session.timeout.ms=10000" || !strings.Contains(notes, "max delay 40s") {
		t.Errorf("last event %+v", ev)
	}
}
