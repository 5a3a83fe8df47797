//go:build e2e

package realcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands"
	"github.com/connectscope/connectscope/e2e/realkafka"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/plan/timeline"
)

// Timings of the test clusters: Connect's defaults. 6 s sessions left too
// little room on a 2-core machine running a dozen JVMs at once.
const (
	sessionTimeoutMs = 10000
	heartbeatMs      = 3000
)

// cluster is one Connect cluster (its own group and internal topics) on a
// shared broker.
type cluster struct {
	t       testing.TB // the running (sub)test or one try of it: failures go here
	root    testing.TB // the test that owns the workers: they live until it ends
	b       *realkafka.Broker
	version string
	group   string
	props   map[string]string
	dataDir string
	workers []*realkafka.Worker // every worker started, in start order
	// snapAt is when the latest snapshot was taken; explain, when set,
	// adds what a failed wait should show beside its last error.
	snapAt  time.Time
	explain func() string
	// snapOrder is the members of the latest snapshot in the broker's
	// order, which breaks the leader's hash-bucket ties (assignor.md §6.2).
	snapOrder []string
	// restMayLag: after an eager round REST may keep showing a moved
	// task as running nowhere (4.4.0: sink-x-1 for over 30 s, while the
	// group assigned it and its new owner's log showed it consuming), so
	// a plan comparison logs a REST disagreement instead of failing.
	restMayLag bool
	// replan makes the last plan of planOf again with other options
	// (the clock matrix's round-time variants).
	replan func(timeline.Options) planJSON
	// zeroAt is the event's moment, the plans' time 0 (ZeroAtMs), once
	// known; zero = the snapshot's read time. snapshot() clears it.
	zeroAt time.Time
}

// newCluster starts n workers of version with the given extra properties
// (scheduled.rebalance.max.delay.ms among them) on the shared broker of
// brokerVersion.
func newCluster(t testing.TB, brokerVersion, version string, n int, props map[string]string) *cluster {
	t.Helper()
	b := broker(t, brokerVersion)
	all := map[string]string{
		"session.timeout.ms":    fmt.Sprint(sessionTimeoutMs),
		"heartbeat.interval.ms": fmt.Sprint(heartbeatMs),
	}
	for k, v := range props {
		all[k] = v
	}
	c := &cluster{t: t, root: t, b: b, version: version, group: newGroup("rc"), props: all, dataDir: t.TempDir()}
	if n > 0 {
		c.addWorkers(n, nil)
	}
	return c
}

// addWorkers starts n more workers (with extra properties over the
// cluster's) and waits until each has joined.
func (c *cluster) addWorkers(n int, extra map[string]string) []*realkafka.Worker {
	c.t.Helper()
	return c.addWorkersOf(c.version, n, extra)
}

func (c *cluster) addWorkersOf(version string, n int, extra map[string]string) []*realkafka.Worker {
	c.t.Helper()
	each := make([]map[string]string, n)
	for i := range each {
		each[i] = extra
	}
	return c.startWorkers(repeat(version, n), each)
}

// addWorkersEach starts one worker per set of extra properties, all at
// once, and waits for them.
func (c *cluster) addWorkersEach(extra ...map[string]string) []*realkafka.Worker {
	c.t.Helper()
	return c.startWorkers(repeat(c.version, len(extra)), extra)
}

// repeat is n copies of s.
func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// startWorkers starts one worker per version and extra properties, all at
// once, and waits for them.
func (c *cluster) startWorkers(versions []string, each []map[string]string) []*realkafka.Worker {
	c.t.Helper()
	var ws []*realkafka.Worker
	for i, extra := range each {
		version := versions[i]
		props := map[string]string{}
		for k, v := range c.props {
			props[k] = v
		}
		for k, v := range extra {
			props[k] = v
		}
		w, err := c.b.NewWorker(realkafka.WorkerOptions{Version: version, Group: c.group, Props: props})
		if err != nil {
			c.t.Fatal(err)
		}
		// Killed when the whole test ends, not the step that started it.
		w.Watch(c.root)
		if err := w.Start(); err != nil {
			c.t.Fatal(err)
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		if err := w.WaitReady(c.ctx(3 * time.Minute)); err != nil {
			c.t.Fatal(err)
		}
	}
	c.workers = append(c.workers, ws...)
	return ws
}

// running are the workers whose JVM is up.
func (c *cluster) running() []*realkafka.Worker {
	var out []*realkafka.Worker
	for _, w := range c.workers {
		if w.Running() {
			out = append(out, w)
		}
	}
	return out
}

// rest is a running worker to send REST requests to.
func (c *cluster) rest() *realkafka.Worker {
	c.t.Helper()
	r := c.running()
	if len(r) == 0 {
		c.t.Fatal("no worker is running")
	}
	return r[0]
}

func (c *cluster) ctx(d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	c.t.Cleanup(cancel)
	return ctx
}

// csArgs are the global flags that point connectscope at this cluster.
func (c *cluster) csArgs() []string {
	return []string{"-b", c.b.Bootstrap(), "-g", c.group,
		"--config-topic", c.group + "-configs", "--offset-topic", c.group + "-offsets", "--status-topic", c.group + "-status",
		"--timeout", "30s"}
}

// run runs connectscope in-process and returns stdout, stderr, exit status.
func run(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := commands.Main(append([]string{"connectscope"}, args...), commands.Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, commands.BuildInfo{Version: "realcluster-test"})
	return out.String(), errb.String(), code
}

// cs runs connectscope against the cluster (global flags first) and
// decodes its JSON output into out; any exit status but 0 fails the test.
func (c *cluster) cs(out any, args ...string) {
	c.t.Helper()
	stdout, stderr, code := run(append(c.csArgs(), args...)...)
	if code != 0 {
		c.t.Fatalf("connectscope %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(stdout), out); err != nil {
			c.t.Fatalf("connectscope %s: output is not JSON: %v\n%s", strings.Join(args, " "), err, stdout)
		}
	}
}

// --- connectors ---

// createSource creates a FileStreamSource reading a new file of lines into
// topic; FileStreamSource always runs one task.
func (c *cluster) createSource(name, topic string, lines int) {
	c.t.Helper()
	file := filepath.Join(c.dataDir, name+".in")
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "%s line %d\n", name, i)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.putConfig(name, map[string]string{
		"connector.class": "org.apache.kafka.connect.file.FileStreamSourceConnector",
		"tasks.max":       "1", "file": file, "topic": topic,
	})
}

// createSink creates a FileStreamSink of tasks tasks reading topics.
func (c *cluster) createSink(name string, tasks int, topics ...string) {
	c.t.Helper()
	c.putConfig(name, map[string]string{
		"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
		"tasks.max":       fmt.Sprint(tasks), "file": filepath.Join(c.dataDir, name+".out"),
		"topics": strings.Join(topics, ","),
	})
}

func (c *cluster) putConfig(name string, cfg map[string]string) {
	c.t.Helper()
	if err := c.rest().RESTRetry(c.ctx(2*time.Minute), http.MethodPut, "/connectors/"+name+"/config", cfg, nil); err != nil {
		c.t.Fatal(err)
	}
}

// restConnector is one entry of GET /connectors?expand=status&expand=info.
type restConnector struct {
	Status struct {
		Connector struct {
			State    string `json:"state"`
			WorkerID string `json:"worker_id"`
		} `json:"connector"`
		Tasks []struct {
			ID       int    `json:"id"`
			State    string `json:"state"`
			WorkerID string `json:"worker_id"`
		} `json:"tasks"`
		Type string `json:"type"`
	} `json:"status"`
	Info struct {
		Config map[string]string `json:"config"`
		Tasks  []struct {
			Connector string `json:"connector"`
			Task      int    `json:"task"`
		} `json:"tasks"`
		Type string `json:"type"`
	} `json:"info"`
}

func (c *cluster) restConnectors() map[string]restConnector {
	c.t.Helper()
	var out map[string]restConnector
	if err := c.rest().RESTRetry(c.ctx(time.Minute), http.MethodGet, "/connectors?expand=status&expand=info", nil, &out); err != nil {
		c.t.Fatal(err)
	}
	return out
}

// waitRunning waits until REST shows every connector and task RUNNING with
// the expected task counts.
func (c *cluster) waitRunning(tasks map[string]int) {
	c.t.Helper()
	c.eventually(2*time.Minute, "every connector and task RUNNING", func() error {
		got := c.restConnectors()
		if len(got) != len(tasks) {
			return fmt.Errorf("REST lists %d connectors, want %d", len(got), len(tasks))
		}
		for name, n := range tasks {
			rc, ok := got[name]
			if !ok {
				return fmt.Errorf("REST lacks %s", name)
			}
			if rc.Status.Connector.State != "RUNNING" || len(rc.Status.Tasks) != n {
				return fmt.Errorf("%s: %s with %d tasks, want RUNNING with %d", name, rc.Status.Connector.State, len(rc.Status.Tasks), n)
			}
			for _, tk := range rc.Status.Tasks {
				if tk.State != "RUNNING" {
					return fmt.Errorf("%s-%d is %s", name, tk.ID, tk.State)
				}
			}
		}
		return nil
	})
}

// stopWaiting, returned by a wait's check, ends the wait at once: the
// wait returns err instead of polling on.
type stopWaiting struct{ err error }

func (s stopWaiting) Error() string { return s.err.Error() }

// eventually polls f until it returns nil or d passes (failing the test
// with f's last error and c.explain). It returns the error of a
// stopWaiting that f returned, and nil otherwise.
func (c *cluster) eventually(d time.Duration, what string, f func() error) error {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return nil
		}
		if stop, ok := err.(stopWaiting); ok {
			return stop.err
		}
		if time.Now().After(deadline) {
			more := ""
			if c.explain != nil {
				more = c.explain()
			}
			c.t.Fatalf("waiting %s for %s: %v%s", d, what, err, more)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// --- the group as inspect members shows it ---

type membersJSON struct {
	Group    string  `json:"group"`
	State    string  `json:"state"`
	Protocol string  `json:"protocol"`
	Leader   *string `json:"leader"`
	Members  []struct {
		MemberID string `json:"member_id"`
		ClientID string `json:"client_id"`
		URL      string `json:"url"`
		Version  int    `json:"version"`
		Owned    struct {
			Connectors []string `json:"connectors"`
			Tasks      []string `json:"tasks"`
		} `json:"owned"`
		Assignment *struct {
			Error   int   `json:"error"`
			DelayMs int64 `json:"delay_ms"`
		} `json:"assignment"`
		Problem *string `json:"problem"`
	} `json:"members"`
}

func (c *cluster) members() membersJSON {
	c.t.Helper()
	var m membersJSON
	c.cs(&m, "inspect", "members", "-o", "json")
	return m
}

// membersUnlessRebalancing is members, or an error while the group is
// rebalancing (exit 3: ownership unknown until it completes), which a
// group with a long heartbeat interval stays in for seconds.
func (c *cluster) membersUnlessRebalancing() (membersJSON, error) {
	c.t.Helper()
	var m membersJSON
	stdout, stderr, code := run(append(c.csArgs(), "inspect", "members", "-o", "json")...)
	if code == 3 && strings.Contains(stderr, "rebalancing") {
		return m, fmt.Errorf("group is rebalancing")
	}
	if code != 0 {
		c.t.Fatalf("connectscope inspect members -o json: exit %d\n%s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		c.t.Fatalf("connectscope inspect members -o json: output is not JSON: %v\n%s", err, stdout)
	}
	return m, nil
}

// ownership maps a worker id (127.0.0.1:PORT) to what it owns: connector
// names as "c:NAME", tasks as "t:NAME-N", sorted.
type ownership map[string][]string

func (o ownership) String() string {
	ids := make([]string, 0, len(o))
	for id := range o {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "\n  %s: %v", id, o[id])
	}
	return b.String()
}

func (o ownership) counts() map[string][2]int {
	out := map[string][2]int{}
	for id, ps := range o {
		var n [2]int
		for _, p := range ps {
			if strings.HasPrefix(p, "c:") {
				n[0]++
			} else {
				n[1]++
			}
		}
		out[id] = n
	}
	return out
}

func (o ownership) equal(p ownership) bool {
	if len(o) != len(p) {
		return false
	}
	for id, ps := range o {
		q, ok := p[id]
		if !ok || !slices.Equal(ps, q) {
			return false
		}
	}
	return true
}

func (o ownership) sameCounts(p ownership) bool {
	oc, pc := o.counts(), p.counts()
	if len(oc) != len(pc) {
		return false
	}
	for id, n := range oc {
		if m, ok := pc[id]; !ok || m != n {
			return false
		}
	}
	return true
}

func pieces(conns, tasks []string) []string {
	out := make([]string, 0, len(conns)+len(tasks))
	for _, c := range conns {
		out = append(out, "c:"+c)
	}
	for _, t := range tasks {
		out = append(out, "t:"+t)
	}
	sort.Strings(out)
	return out
}

var workerIDInURL = regexp.MustCompile(`^https?://([^/]+)/?$`)

// workerID is the worker id (host:port) of a REST URL.
func workerID(url string) string {
	if m := workerIDInURL.FindStringSubmatch(url); m != nil {
		return m[1]
	}
	return url
}

// owned is what inspect members says each member owns, by worker id.
func (m membersJSON) owned() ownership {
	out := ownership{}
	for _, mb := range m.Members {
		out[workerID(mb.URL)] = pieces(mb.Owned.Connectors, mb.Owned.Tasks)
	}
	return out
}

// urlOfMember maps member ids to worker ids.
func (m membersJSON) urlOfMember() map[string]string {
	out := map[string]string{}
	for _, mb := range m.Members {
		out[mb.MemberID] = workerID(mb.URL)
	}
	return out
}

// restOwnership is where REST says each connector and task runs, by worker
// id: RUNNING and PAUSED pieces, and STOPPED connectors (Connect keeps
// assigning a stopped connector; only its tasks are gone).
func restOwnership(rcs map[string]restConnector) ownership {
	out := ownership{}
	for name, rc := range rcs {
		if s := rc.Status.Connector.State; s == "RUNNING" || s == "PAUSED" || s == "STOPPED" {
			out[rc.Status.Connector.WorkerID] = append(out[rc.Status.Connector.WorkerID], "c:"+name)
		}
		for _, tk := range rc.Status.Tasks {
			if tk.State == "RUNNING" || tk.State == "PAUSED" {
				out[tk.WorkerID] = append(out[tk.WorkerID], fmt.Sprintf("t:%s-%d", name, tk.ID))
			}
		}
	}
	for id := range out {
		sort.Strings(out[id])
	}
	return out
}

// configured is every piece Connect assigns: each connector, and the tasks
// Connect runs for it (inspect configs).
func (c *cluster) configured() []string {
	c.t.Helper()
	var cfg struct {
		Connectors []struct {
			Name  string `json:"name"`
			Tasks []struct {
				ID string `json:"id"`
			} `json:"tasks"`
		} `json:"connectors"`
	}
	c.cs(&cfg, "inspect", "configs", "-o", "json")
	var conns, tasks []string
	for _, cc := range cfg.Connectors {
		conns = append(conns, cc.Name)
		for _, tk := range cc.Tasks {
			tasks = append(tasks, tk.ID)
		}
	}
	return pieces(conns, tasks)
}

// settle waits until the group is Stable with exactly the running workers,
// owns every configured piece once, has no delay pending, and has kept the
// same ownership so for quiet; want (if not nil) must also accept that
// ownership. It returns the settled group.
func (c *cluster) settle(d, quiet time.Duration, want func(ownership) error) membersJSON {
	c.t.Helper()
	m, err := c.settleUnless(d, quiet, want)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// settleUnless is settle for a want that may end the wait early by
// returning stopWaiting; it returns that error.
func (c *cluster) settleUnless(d, quiet time.Duration, want func(ownership) error) (membersJSON, error) {
	c.t.Helper()
	var stableSince time.Time
	var last ownership
	var m membersJSON
	err := c.eventually(d, "the group to settle", func() error {
		var err error
		if m, err = c.membersUnlessRebalancing(); err != nil {
			last = nil
			return err
		}
		err = c.settledNow(m)
		o := m.owned()
		if err != nil || last == nil || !o.equal(last) {
			last, stableSince = o, time.Now()
			if err == nil {
				err = fmt.Errorf("ownership changed")
			}
			return err
		}
		if time.Since(stableSince) < quiet {
			return fmt.Errorf("settled for %s of %s", time.Since(stableSince).Round(time.Millisecond), quiet)
		}
		if want != nil {
			return want(o)
		}
		return nil
	})
	return m, err
}

// settledNow says why the group is not settled this moment, or nil.
func (c *cluster) settledNow(m membersJSON) error {
	if m.State != "Stable" {
		return fmt.Errorf("group is %s", m.State)
	}
	var urls []string
	for _, mb := range m.Members {
		urls = append(urls, workerID(mb.URL))
		if mb.Problem != nil {
			return fmt.Errorf("member %s: %s", mb.MemberID, *mb.Problem)
		}
		if mb.Assignment != nil && mb.Assignment.DelayMs > 0 {
			return fmt.Errorf("member %s was told to wait %d ms", mb.MemberID, mb.Assignment.DelayMs)
		}
	}
	var live []string
	for _, w := range c.running() {
		live = append(live, w.ID())
	}
	sort.Strings(urls)
	sort.Strings(live)
	if !slices.Equal(urls, live) {
		return fmt.Errorf("group members %v, running workers %v", urls, live)
	}
	var all []string
	for _, ps := range m.owned() {
		all = append(all, ps...)
	}
	sort.Strings(all)
	if cfg := c.configured(); !slices.Equal(all, cfg) {
		return fmt.Errorf("members own %v, configured %v", all, cfg)
	}
	return nil
}

// snapshot writes `connectscope snapshot` of the cluster to a file.
func (c *cluster) snapshot() string {
	c.t.Helper()
	path := filepath.Join(c.t.TempDir(), "snapshot.json")
	c.snapAt, c.zeroAt = time.Now(), time.Time{}
	c.cs(nil, "snapshot", "--file", path)
	c.snapOrder = snapshotMemberOrder(c.t, path)
	return path
}

func snapshotMemberOrder(t testing.TB, path string) []string {
	t.Helper()
	d, err := source.LoadFile(path, inspect.DefaultTopicNames())
	if err != nil {
		t.Fatalf("reading snapshot %s: %v", path, err)
	}
	return inspect.MemberIDs(d.Group)
}
