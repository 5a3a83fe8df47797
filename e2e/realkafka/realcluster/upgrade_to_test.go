//go:build e2e

package realcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/e2e/realkafka"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/workers"
	"github.com/twmb/franz-go/pkg/kgo"
)

const fileSource = "org.apache.kafka.connect.file.FileStreamSourceConnector"

// TestWorkersAndUpgradeTo4x runs one mixed cluster on a 4.x broker: two
// 4.x workers, one of them without the connect-file plugin, and a 3.9
// worker whose connect-file is 3.9. Every member is asked through its REST
// URL; a connector pinned (KIP-891) to the 4.x connect-file version and one
// with ReplaceField's removed whitelist make `check upgrade --to 4.x` find
// each problem with its rule; a frozen worker is a row with a timeout within
// the bound, a killed one a row with its error; once the problems are gone
// the check passes; a restart is measured from /health and the rejoin.
func TestWorkersAndUpgradeTo4x(t *testing.T) {
	c := newCluster(t, realkafka.Newest4x, realkafka.Newest4x, 0, map[string]string{"scheduled.rebalance.max.delay.ms": "5000"})
	noPlugins := t.TempDir()
	// The full worker joins first, so it leads and validates connector
	// configs (the pin) against its own plugins.
	full := c.addWorkers(1, nil)[0]
	rest2 := c.startWorkers([]string{realkafka.Newest4x, realkafka.Newest39}, []map[string]string{{"plugin.path": noPlugins}, nil})
	bare, old := rest2[0], rest2[1]
	client := rest.New(rest.Options{PerRequest: 5 * time.Second, Total: 20 * time.Second})
	defer client.Close()

	// Every member answers: versions, health, plugins.
	infos := c.askMembers(client)
	byWorker := map[string]rest.WorkerInfo{}
	for _, w := range infos {
		byWorker[w.Worker] = w
		t.Logf("%s: version %s health %+v plugins %d error %v", w.Worker, deref(w.Version), w.Health, len(w.Plugins), w.Error)
	}
	for _, w := range []*realkafka.Worker{full, bare, old} {
		got, ok := byWorker[w.ID()]
		if !ok || got.Error != nil || got.Version == nil || *got.Version != w.Version() || got.Health == nil || got.Health.Status != "healthy" {
			t.Errorf("worker %s (%s): %+v", w.ID(), w.Version(), got)
		}
	}
	pinned := pluginVersion(byWorker[full.ID()].Plugins, fileSource)
	t.Logf("connect-file FileStreamSource: %q on %s, %q on %s", pinned, full.ID(), pluginVersion(byWorker[old.ID()].Plugins, fileSource), old.ID())
	if pinned == "" || pluginVersion(byWorker[bare.ID()].Plugins, fileSource) != "" || pluginVersion(byWorker[old.ID()].Plugins, fileSource) == pinned {
		t.Fatalf("plugin sets: full %q, bare %q, old %q", pinned, pluginVersion(byWorker[bare.ID()].Plugins, fileSource), pluginVersion(byWorker[old.ID()].Plugins, fileSource))
	}

	// A connector pinned to the 4.x connect-file, one using a removed key.
	in := filepath.Join(c.dataDir, "pinned.in")
	if err := os.WriteFile(in, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.putConfig("pinned", map[string]string{"connector.class": fileSource, "connector.plugin.version": pinned,
		"tasks.max": "1", "file": in, "topic": c.group + "-pinned"})
	c.putConfig("legacy", map[string]string{"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
		"tasks.max": "1", "file": filepath.Join(c.dataDir, "legacy.out"), "topics": c.group + "-pinned",
		"transforms": "keep", "transforms.keep.type": "org.apache.kafka.connect.transforms.ReplaceField$Value",
		"transforms.keep.whitelist": "id"})
	c.settle(2*time.Minute, 3*time.Second, nil)

	rep, code := c.upgradeTo("4.x")
	if code != 1 {
		t.Errorf("check upgrade --to 4.x on the mixed cluster: exit %d, want 1", code)
	}
	want := map[string][]string{"U1": {"legacy"}, "U11": {"legacy on " + bare.ID(), "pinned on " + bare.ID()},
		"U12": {"pinned on " + old.ID()}, "U9": {"workers"}, "U10": {"workers"}}
	got := map[string][]string{}
	for _, f := range rep.Findings {
		got[f.Rule] = append(got[f.Rule], f.Subject)
		t.Logf("%s %s %s: %s", f.Severity, f.Rule, f.Subject, f.Message)
	}
	for rule, subjects := range want {
		sort.Strings(got[rule])
		if strings.Join(got[rule], "|") != strings.Join(subjects, "|") {
			t.Errorf("%s: subjects %q, want %q", rule, got[rule], subjects)
		}
	}

	// A frozen worker: its row carries a timeout and the round keeps its bound.
	if err := old.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := old.WaitPaused(c.ctx(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, w := range c.inspectWorkers("--rest-timeout", "1s", "--rest-total-timeout", "3s").Workers {
		switch {
		case w.Worker == old.ID() && (w.Error == nil || !strings.Contains(*w.Error, "no answer within 1s")):
			t.Errorf("frozen worker %s: %v, want a timeout (row %+v; its log's last lines:\n%s)", w.Worker, w.Error, w, old.LogTail(5))
		case w.Worker != old.ID() && w.Error != nil:
			t.Errorf("worker %s: %v", w.Worker, *w.Error)
		}
	}
	if err := old.Resume(); err != nil {
		t.Fatal(err)
	}

	// A killed worker stays a member until its session expires: a row with its error.
	if err := bare.Kill(); err != nil {
		t.Fatal(err)
	}
	rows := c.inspectWorkers().Workers
	if len(rows) != 3 {
		t.Errorf("%d rows, want one per member (3)", len(rows))
	}
	for _, w := range rows {
		if w.Worker == bare.ID() && (w.Error == nil || w.Reached()) {
			t.Errorf("killed worker %s: %+v", w.Worker, w)
		}
	}

	// Without the problems the check passes.
	for _, name := range []string{"pinned", "legacy"} {
		if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodDelete, "/connectors/"+name, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.eventually(time.Minute, "the killed worker to leave the group", func() error {
		ms, state, err := c.b.GroupMembers(c.ctx(10*time.Second), c.group)
		if err != nil || state != "Stable" || len(ms) != 2 {
			return errors.New("not yet: " + state)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The lost pieces of the killed worker come back after the scheduled delay.
	c.settle(2*time.Minute, 3*time.Second, nil)
	rep, code = c.upgradeTo("4.x")
	for _, f := range rep.Findings {
		t.Logf("clean: %s %s %s: %s", f.Severity, f.Rule, f.Subject, f.Message)
	}
	if code != 0 {
		t.Errorf("check upgrade --to 4.x on the clean cluster: exit %d, want 0 (%+v)", code, rep.Summary)
	}

	// A deleted source leaves its offsets: K18 names what a connector
	// created again under its name would resume from.
	c.createSource("orphan", c.group+"-orphan", 3)
	c.waitRunning(map[string]int{"orphan": 1})
	if err := c.eventually(time.Minute, "orphan's offsets", func() error {
		var ro restOffsets
		if err := c.rest().REST(c.ctx(10*time.Second), http.MethodGet, "/connectors/orphan/offsets", nil, &ro); err != nil || len(ro.Offsets) == 0 {
			return fmt.Errorf("no offsets yet (%v)", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodDelete, "/connectors/orphan", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.checkOrphan("orphan")

	// A restart measured: from /health and from the rejoin.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	done := make(chan *workers.RestartTimes)
	wctx, stop := context.WithCancel(ctx)
	go func() {
		done <- workers.WatchRestarts(wctx, client, c.describeGroup, 500*time.Millisecond, func(r workers.Restart) {
			if r.Worker == full.ID() {
				stop()
			}
		})
	}()
	time.Sleep(1500 * time.Millisecond) // a few healthy looks first
	if err := full.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Workers[full.ID()] <= 0 {
		t.Fatalf("no restart measured for %s: %+v", full.ID(), res)
	}
	for _, r := range res.Restarts {
		t.Logf("restart %s: health %v ms, join %v ms, restart %v ms, stages %q", r.Worker, deref64(r.HealthMs), deref64(r.JoinMs), deref64(r.RestartMs), r.Stages)
		if r.Worker == full.ID() && (r.HealthMs == nil || r.JoinMs == nil) {
			t.Errorf("a 4.x restart is measured both ways: %+v", r)
		}
	}
}

func pluginVersion(ps []rest.Plugin, class string) string {
	for _, p := range ps {
		if p.Class == class {
			return p.Version
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func deref64(n *int64) any {
	if n == nil {
		return nil
	}
	return *n
}

// describeGroup describes the cluster's group as the commands do.
func (c *cluster) describeGroup(ctx context.Context) (*group.MembersResult, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.b.Bootstrap()))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	g, err := live.DescribeGroup(ctx, cl, c.group)
	if err != nil {
		return nil, err
	}
	m := group.Members(g)
	return &m, nil
}

// askMembers asks every member the broker lists in the group now, as
// inspect workers does.
func (c *cluster) askMembers(client *rest.Client) []rest.WorkerInfo {
	c.t.Helper()
	m, err := c.describeGroup(c.ctx(10 * time.Second))
	if err != nil {
		c.t.Fatal(err)
	}
	targets, _ := workers.Targets(m)
	return client.Workers(c.ctx(time.Minute), targets, rest.Calls{Health: true, Plugins: true})
}

// upgradeTo runs `check upgrade --to` on the cluster and returns its
// report and exit status.
func (c *cluster) upgradeTo(to string) (*check.UpgradeReport, int) {
	c.t.Helper()
	stdout, stderr, code := run(append(c.csArgs(), "check", "upgrade", "--to", to, "-o", "json")...)
	var rep check.UpgradeReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		c.t.Fatalf("check upgrade --to %s: exit %d, output is not JSON: %v\n%s\n%s", to, code, err, stdout, stderr)
	}
	for _, w := range rep.RESTWorkers {
		if w.Error != nil {
			c.t.Logf("REST %s: %s", w.Worker, *w.Error)
		}
	}
	return &rep, code
}

// checkOrphan runs `check topics` and wants K18 for the deleted connector,
// with its source offsets counted.
func (c *cluster) checkOrphan(name string) {
	c.t.Helper()
	err := c.eventually(time.Minute, "K18 for "+name, func() error {
		stdout, stderr, code := run(append(c.csArgs(), "check", "topics", "-o", "json")...)
		if code != 0 && code != 1 {
			return fmt.Errorf("check topics: exit %d: %s", code, stderr)
		}
		var rep check.TopicsReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			return err
		}
		for _, f := range rep.Findings {
			if f.Rule == "K18" && f.Subject == "connector "+name {
				c.t.Logf("%s %s: %s", f.Rule, f.Subject, f.Message)
				if n, _ := f.Values["source_offsets"].(float64); n < 1 {
					return fmt.Errorf("K18 without source offsets: %+v", f.Values)
				}
				return nil
			}
		}
		return fmt.Errorf("no K18 for %s among %d findings", name, len(rep.Findings))
	})
	if err != nil {
		c.t.Error(err)
	}
}

// inspectWorkers runs `inspect workers -o json` on the cluster.
func (c *cluster) inspectWorkers(args ...string) *workers.Result {
	c.t.Helper()
	var res workers.Result
	c.cs(&res, append([]string{"inspect", "workers", "-o", "json"}, args...)...)
	return &res
}
