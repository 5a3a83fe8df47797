package sandbox

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/store"
)

// liveView is what connectscope's own readers see in the sandbox.
type liveView struct {
	ds      *inspect.Dataset
	configs *store.ConfigsResult
	status  *store.StatusResult
	offsets *store.OffsetsResult
	members group.MembersResult
}

func readLive(t *testing.T, c *Cluster) liveView {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ds, err := live.Read(ctx, live.Options{
		Conn:   live.ConnOptions{Bootstrap: []string{c.Bootstrap()}, Timeout: 5 * time.Second},
		Group:  c.GroupID(),
		Topics: c.Config().Topics,
	})
	if err != nil {
		t.Fatalf("reading the sandbox live: %v", err)
	}
	cfg, st, off, unknown := store.SplitTopics(ds.Records, ds.Topics)
	if len(unknown) > 0 {
		t.Fatalf("%d records on no internal topic", len(unknown))
	}
	v := liveView{ds: ds,
		configs: store.DecodeConfigs(cfg, store.DecodeOptions{Topic: ds.Topics.Config}),
		status:  store.DecodeStatus(st, store.DecodeOptions{Topic: ds.Topics.Status}),
		offsets: store.DecodeOffsets(off, store.DecodeOptions{Topic: ds.Topics.Offset}),
		members: group.Members(ds.Group),
	}
	for _, p := range slices.Concat(v.configs.Problems, v.status.Problems, v.offsets.Problems) {
		t.Errorf("record the sandbox wrote does not decode: %+v", p)
	}
	return v
}

// ownedByWorker maps worker name -> sorted piece names, from the workers'
// own state.
func ownedByWorker(c *Cluster) map[string][]string {
	out := map[string][]string{}
	for _, w := range c.WorkerStates() {
		out[w.Name] = pieceNames(w.Owned.Connectors, w.Owned.Tasks)
	}
	return out
}

func pieceNames[T interface{ String() string }](conns []string, tasks []T) []string {
	out := slices.Clone(conns)
	for _, t := range tasks {
		out = append(out, t.String())
	}
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// ownedFromGroup maps worker name -> sorted pieces, from DescribeGroups as
// decoded by group.Members (the worker name is the client id's host).
func ownedFromGroup(t *testing.T, m group.MembersResult) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, mv := range m.Members {
		name := strings.TrimSuffix(strings.TrimPrefix(mv.ClientID, "connect-"), ":8083")
		if mv.Owned == nil {
			t.Fatalf("member %s: ownership not derivable (problem %v)", mv.MemberID, mv.Problem)
		}
		out[name] = slices.Sorted(slices.Values(append(slices.Clone(mv.Owned.Connectors), mv.Owned.Tasks...)))
	}
	return out
}

func statusOf(v liveView, id string) (state, worker string, gen int32, ok bool) {
	for _, s := range v.status.Connectors {
		if s.Name == id {
			return s.State, deref(s.WorkerID), s.Generation, true
		}
	}
	for _, s := range v.status.Tasks {
		if s.ID == id {
			return s.State, deref(s.WorkerID), s.Generation, true
		}
	}
	return "", "", 0, false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func addWorkers(t *testing.T, c *Cluster, protocols ...string) {
	t.Helper()
	for _, p := range protocols {
		if _, err := c.AddWorker(context.Background(), "", p); err != nil {
			t.Fatal(err)
		}
	}
}

func addConnectors(t *testing.T, c *Cluster, specs ...ConnectorSpec) {
	t.Helper()
	for _, s := range specs {
		if err := c.AddConnector(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// allPieces lists every configured piece, sorted.
func allPieces(c *Cluster) []string {
	var out []string
	for _, ci := range c.Connectors() {
		out = append(out, ci.Name)
		for i := 0; i < ci.Tasks; i++ {
			out = append(out, taskID{Connector: ci.Name, Task: i}.String())
		}
	}
	slices.Sort(out)
	return out
}

// union of all workers' pieces, sorted, with duplicates kept (so a piece
// owned twice shows up).
func union(m map[string][]string) []string {
	var out []string
	for _, ps := range m {
		out = append(out, ps...)
	}
	slices.Sort(out)
	return out
}
