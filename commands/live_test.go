package commands

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/watch"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
	urfave "github.com/urfave/cli/v2"
)

// liveCluster starts kfake with a small Connect cluster: the records of
// kafkatest.SeedConnect, two workers in the Connect group (sessioned), and
// the sink connector "snk" consuming "orders" as connect-snk.
func liveCluster(t *testing.T, opts ...kfake.Opt) *kafkatest.Cluster {
	return liveClusterLogged(t, kafkatest.NewRequestLog(), opts...)
}

func liveClusterLogged(t *testing.T, log *kafkatest.RequestLog, opts ...kfake.Opt) *kafkatest.Cluster {
	t.Helper()
	c := kafkatest.New(t, append([]kfake.Opt{kfake.SeedTopics(3, "orders"), kafkatest.WithRequestLog(log)}, opts...)...)
	log.WatchAutoCreate(c)
	c.SeedConnect(t)
	var orders []*kgo.Record
	for i := range 9 {
		orders = append(orders, &kgo.Record{Topic: "orders", Partition: int32(i % 3), Value: []byte("o")})
	}
	c.ProduceKeyed(t, orders...)
	joinWorkers(t, c, "10.0.0.1:8083", "10.0.0.2:8083")
	c.SinkConsumer(t, "connect-snk", "snk", 0, "orders")
	return c
}

// joinWorkers puts Connect-speaking members into the group; the leader gives
// the first worker connector src and its tasks, the others nothing.
func joinWorkers(t *testing.T, c *kafkatest.Cluster, hosts ...string) []*kafkatest.Member {
	t.Helper()
	var members []*kafkatest.Member
	for _, h := range hosts {
		url := "http://" + h + "/"
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 11})
		if err != nil {
			t.Fatal(err)
		}
		assign := func(groupProtocol string, ms map[string][]byte) map[string][]byte {
			ids := make([]string, 0, len(ms))
			for id := range ms {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			out := map[string][]byte{}
			for i, id := range ids {
				a := &protocol.Assignment{Version: 2, Leader: ids[0], LeaderURL: url, ConfigOffset: 11}
				if i == 0 {
					a.Assigned = []protocol.ConnectorEntry{{Connector: "src", Tasks: []int32{-1, 0, 1}}}
				}
				b, err := protocol.EncodeAssignment(a)
				if err != nil {
					t.Error(err)
				}
				out[id] = b
			}
			return out
		}
		members = append(members, c.JoinMember(t, kafkatest.Group, "connect", "connect-"+h,
			[]kafkatest.Protocol{{Name: "sessioned", Metadata: meta}}, assign))
	}
	// Wait until every member has synced in the same generation.
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		g := members[0].Generation()
		same := true
		for _, m := range members {
			same = same && m.Generation() == g
		}
		if same {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return members
}

// liveCommands are every command that reads a cluster, with the arguments
// that make it do its whole job.
func liveCommands(t *testing.T) [][]string {
	snap := filepath.Join(t.TempDir(), "cluster.snapshot.json")
	cmds := [][]string{
		{"inspect", "configs", "-o", "json"},
		{"inspect", "status", "-o", "json"},
		{"inspect", "offsets", "-o", "json"},
		{"inspect", "connectors", "-o", "json"},
		{"inspect", "members", "-o", "json"},
		{"inspect", "sinks", "-o", "json"},
		{"inspect", "sinks"},
		{"snapshot", "--file", snap},
		{"snapshot", "--file", "-"},
		{"inspect", "connector", "-o", "json", "src"},
		{"diff", "--live", snap}, // the snapshot just taken: equal, exit 0
	}
	// Commands of other areas join the list as soon as they exist.
	for _, extra := range [][]string{{"watch", "--duration", "2s"}, {"plan", "join", "--add", "1"}, {"check", "all"}} {
		if hasCommand(t, extra) {
			cmds = append(cmds, extra)
		}
	}
	return cmds
}

// TestLiveReadOnly runs every live command against an embedded broker that
// logs each request it receives, and fails on any request that would join a
// group, commit, produce, or create, alter or delete anything.
func TestLiveReadOnly(t *testing.T) {
	t.Parallel()
	log := kafkatest.NewRequestLog()
	c := liveClusterLogged(t, log)
	for _, args := range liveCommands(t) {
		log.Start()
		stdout, stderr, code := run(t, append([]string{"-b", c.Bootstrap(), "--timeout", "10s"}, args...)...)
		log.Stop()
		name := strings.Join(args, " ")
		if code != 0 && !(args[0] == "check" && code == 1) {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		if clients := log.Clients(); !slices.Contains(clients, "connectscope") {
			t.Errorf("%s: no request from client id connectscope (clients seen: %v)", name, clients)
		}
		if v := log.Violations("connectscope"); len(v) > 0 {
			t.Errorf("%s sent forbidden requests %v (all: %v)", name, v, log.Seen("connectscope"))
		}
		readsTopics := !strings.HasPrefix(name, "inspect members") // members may read no topic but the config topic
		if (readsTopics && log.Count("connectscope", kmsg.Fetch) == 0) || log.Count("connectscope", kmsg.DescribeGroups) == 0 {
			t.Errorf("%s: did not read topics and group (%v)", name, log.Seen("connectscope"))
		}

		if strings.Contains(name, "-o json") && !json.Valid([]byte(stdout)) {
			t.Errorf("%s: output is not JSON: %.200s", name, stdout)
		}
	}
	// The same log catches forbidden requests when they happen: the test's
	// own workers heartbeat and its sink consumer is in a group.
	// Recorded until the first heartbeat arrives (or 10 s pass).
	log.Start()
	for deadline := time.Now().Add(10 * time.Second); log.Count("connect-10.0.0.1:8083", kmsg.Heartbeat) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	log.Stop()
	if v := log.Violations("connect-10.0.0.1:8083"); !slices.Contains(v, "Heartbeat") {
		t.Errorf("the request log missed the workers' heartbeats: %v", log.Seen("connect-10.0.0.1:8083"))
	}
}

func TestLiveInspectOutputs(t *testing.T) {
	t.Parallel()
	c := liveCluster(t)
	b := []string{"-b", c.Bootstrap(), "--timeout", "10s"}

	out, stderr, code := run(t, append(b, "inspect", "members", "-o", "json")...)
	if code != 0 {
		t.Fatalf("members: %d %s", code, stderr)
	}
	var members struct {
		State    string `json:"state"`
		Protocol string `json:"protocol"`
		Members  []struct {
			URL   string `json:"url"`
			Owned struct {
				Tasks []string `json:"tasks"`
			} `json:"owned"`
		} `json:"members"`
	}
	if err := json.Unmarshal([]byte(out), &members); err != nil {
		t.Fatal(err)
	}
	if members.State != "Stable" || members.Protocol != "sessioned" || len(members.Members) != 2 {
		t.Fatalf("members %s", out)
	}
	owned := 0
	for _, m := range members.Members {
		owned += len(m.Owned.Tasks)
	}
	if owned != 2 {
		t.Errorf("owned tasks %d: %s", owned, out)
	}

	out, _, code = run(t, append(b, "inspect", "sinks", "-o", "json", "--jq", ".sinks[] | [.connector, .group, .state, (.lag|tostring)] | join(\" \")")...)
	if code != 0 || strings.TrimSpace(out) != "snk connect-snk Stable 0\nsnk-override custom-group Dead null" {
		t.Errorf("sinks: %d %q", code, out)
	}

	out, _, code = run(t, append(b, "inspect", "status", "-o", "json", "--jq", ".tasks[] | select(.state==\"FAILED\") | .id")...)
	if code != 0 || strings.TrimSpace(out) != "src-1" {
		t.Errorf("status: %d %q", code, out)
	}

	// The snapshot holds the same as the live read: every view agrees.
	snap := filepath.Join(t.TempDir(), "s.json")
	if _, stderr, code := run(t, append(b, "snapshot", "--file", snap)...); code != 0 {
		t.Fatalf("snapshot: %d %s", code, stderr)
	}
	if fi, err := os.Stat(snap); err != nil || fi.Size() == 0 {
		t.Fatalf("snapshot file: %v", err)
	}
	if fi, _ := os.Stat(snap); fi.Mode().Perm() != 0o600 {
		t.Errorf("snapshot file mode %v: it may hold secrets, want 0600", fi.Mode().Perm())
	}
	stdout, _, code := run(t, append(b, "snapshot", "--file", "-")...)
	var snapDoc map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &snapDoc) != nil || snapDoc["snapshot"] == nil {
		t.Errorf("snapshot --file -: exit %d, %.200s", code, stdout)
	}
	for _, view := range [][]string{{"inspect", "configs"}, {"inspect", "status"}, {"inspect", "offsets"}, {"inspect", "connectors"}, {"inspect", "members"}, {"inspect", "sinks"}} {
		live, _, c1 := run(t, append(append(b, view...), "-o", "json")...)
		file, _, c2 := run(t, append(view, "--from", snap, "-o", "json")...)
		if c1 != 0 || c2 != 0 || live != file {
			t.Errorf("%v: live (exit %d) and snapshot (exit %d) differ:\n%s\n---\n%s", view, c1, c2, live, file)
		}
	}
}

// TestLiveFaultsExit3 checks the command-line end of the fault handling:
// one line on stderr, nothing on stdout, exit status 3.
func TestLiveFaultsExit3(t *testing.T) {
	t.Parallel()
	closed := kafkatest.RefusedAddr(t)

	noStatus, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "connect-configs"), kfake.SeedTopics(25, "connect-offsets"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(noStatus.Close) // after the parallel subtests

	sasl := kafkatest.New(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "connect", "right"))

	// A group mid-rebalance: a hung worker and a newcomer waiting for it.
	// Made inside its subtest, just before the read: a parallel subtest can
	// wait long for its turn, longer than the hung member's session.
	rebalancing := func(t *testing.T) string {
		c := kafkatest.New(t)
		meta, _ := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 0, URL: "http://w:8083/", ConfigOffset: 0})
		none := func(string, map[string][]byte) map[string][]byte { return nil }
		hung := c.JoinMember(t, kafkatest.Group, "connect", "w1", []kafkatest.Protocol{{Name: "default", Metadata: meta}}, none, kafkatest.SessionTimeout(30*time.Second))
		hung.Pause()
		c.StartMember(t, kafkatest.Group, "connect", "w2", []kafkatest.Protocol{{Name: "default", Metadata: meta}}, none, kafkatest.SessionTimeout(30*time.Second))
		c.WaitGroupState(t, kafkatest.Group, "PreparingRebalance", 20*time.Second)
		return c.Bootstrap()
	}
	fixed := func(args ...string) func(*testing.T) []string { return func(*testing.T) []string { return args } }

	for _, tc := range []struct {
		name string
		args func(*testing.T) []string
		want []string
	}{
		{"unreachable", fixed("-b", closed, "inspect", "status"), []string{"connection refused", "-b/--bootstrap-server"}},
		{"missing topic", fixed("-b", noStatus.ListenAddrs()[0], "inspect", "status"), []string{"connect-status", "does not exist", "--status-topic"}},
		{"bad password", fixed("-b", sasl.Bootstrap(), "--sasl-mechanism", "SCRAM-SHA-512", "--sasl-user", "connect", "--sasl-password", "wrong", "inspect", "status"),
			[]string{"authentication failed for user \"connect\" with SCRAM-SHA-512"}},
		{"rebalancing", func(t *testing.T) []string { return []string{"-b", rebalancing(t), "inspect", "members"} }, []string{"rebalancing (PreparingRebalance)", "run again"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own fault
			args := tc.args(t)
			start := time.Now()
			stdout, stderr, code := run(t, append([]string{"--timeout", "3s"}, args...)...)
			if took := time.Since(start); took > 8*time.Second {
				t.Errorf("took %s with --timeout 3s", took)
			}
			if code != ExitInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "connectscope: ") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
	// With the right password the same command works.
	if _, stderr, code := run(t, "-b", sasl.Bootstrap(), "--sasl-mechanism", "SCRAM-SHA-512", "--sasl-user", "connect", "--sasl-password", "right", "inspect", "status"); code != 0 {
		t.Errorf("good password: exit %d %s", code, stderr)
	}
}

func TestLiveWatch(t *testing.T) {
	t.Parallel()
	c := liveCluster(t)
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan result, 1)
	watchOut := newFirstLineWriter()
	go func() {
		var errb bytes.Buffer
		code := Main([]string{"connectscope", "-b", c.Bootstrap(), "watch", "--duration", "4s", "--interval", "100ms", "-o", "jsonl"},
			Streams{In: strings.NewReader(""), Out: watchOut, Err: &errb}, BuildInfo{Version: "v9.9.9-test"})
		done <- result{watchOut.String(), errb.String(), code}
	}()
	// The first event is watch's description of the group: from then on it
	// sees what changes.
	select {
	case <-watchOut.first:
	case <-time.After(3 * time.Second):
		t.Fatal("watch printed no event within 3s")
	}
	joinWorkers(t, c, "10.0.0.3:8083")
	c.ProduceKeyed(t, &kgo.Record{Topic: kafkatest.StatusTopic, Partition: -1, Key: []byte("status-task-src-1"),
		Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"10.0.0.3:8083","generation":4}`)})
	// Text output ends with the summary: a second watch, of the group
	// settled with the joined worker, beside the rest of the first.
	// Two seconds: the first reading must come within the watch on a loaded machine.
	textDone := make(chan result, 1)
	go func() {
		out, stderr, code := run(t, "-b", c.Bootstrap(), "watch", "--duration", "2s")
		textDone <- result{out, stderr, code}
	}()
	res := <-done
	if res.code != 0 {
		t.Fatalf("watch: exit %d: %s", res.code, res.errOut)
	}
	lines := strings.Split(strings.TrimSpace(res.out), "\n")
	seen := map[string]int{}
	for _, l := range lines {
		var e struct {
			Type    string `json:"type"`
			Task    string `json:"task"`
			State   string `json:"state"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		seen[e.Type]++
		if e.Type == "task_state" && (e.Task != "src-1" || e.State != "RUNNING" || !strings.Contains(e.Message, "FAILED → RUNNING on 10.0.0.3:8083")) {
			t.Errorf("task event %s", l)
		}
	}
	for _, want := range []string{"group_state", "member_joined", "rebalance_completed", "task_state", "summary"} {
		if seen[want] == 0 {
			t.Errorf("no %s event in:\n%s", want, res.out)
		}
	}
	var summary watch.Summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &summary); err != nil || summary.Type != "summary" {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	if summary.RebalanceCount == 0 || summary.MembersAtEnd != 3 || summary.TaskNotRunningMs <= 0 {
		t.Errorf("summary %+v", summary)
	}

	text := <-textDone
	if text.code != 0 || !strings.Contains(text.out, "group connect-cluster is Stable with 3 members") || !strings.Contains(text.out, "summary: watched") {
		t.Errorf("text watch: %d %q %q", text.code, text.out, text.errOut)
	}
	// watch needs a live cluster.
	if _, _, code := run(t, "watch", "--from", "x.json"); code != ExitUsage {
		t.Errorf("watch --from: exit %d", code)
	}
}

// TestLiveWorkerConfigSecurity reads a broker that wants TLS with a client
// certificate and SCRAM, configured only through a worker .properties file.
func TestLiveWorkerConfigSecurity(t *testing.T) {
	t.Parallel()
	m := kafkatest.NewTLS(t)
	c := kafkatest.New(t, kfake.TLS(m.Mutual), kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "connect", "s3cret"))
	cert, err := tls.LoadX509KeyPair(m.ClientCertFile, m.ClientKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := os.ReadFile(m.CAFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	c.ClientOpts = []kgo.Opt{
		kgo.DialTLSConfig(&tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}),
		kgo.SASL(scram.Auth{User: "connect", Pass: "s3cret"}.AsSha256Mechanism()),
	}
	c.SeedConnect(t)

	dir := t.TempDir()
	certPEM, _ := os.ReadFile(m.ClientCertFile)
	keyPEM, _ := os.ReadFile(m.ClientKeyFile)
	keystore := filepath.Join(dir, "client-keystore.pem") // a PEM keystore: key and chain in one file
	if err := os.WriteFile(keystore, append(keyPEM, certPEM...), 0o600); err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(dir, "worker.properties")
	content := "bootstrap.servers=" + c.Bootstrap() + "\n" +
		"group.id=connect-cluster\n" +
		"security.protocol=SASL_SSL\n" +
		"sasl.mechanism=SCRAM-SHA-256\n" +
		"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"connect\" password=\"s3cret\";\n" +
		"ssl.truststore.type=PEM\nssl.truststore.location=" + m.CAFile + "\n" +
		"ssl.keystore.type=PEM\nssl.keystore.location=" + keystore + "\n"
	if err := os.WriteFile(props, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, "--worker-config", props, "--timeout", "5s", "inspect", "status", "-o", "json", "--jq", ".tasks | length")
	if code != 0 || strings.TrimSpace(out) != "3" {
		t.Fatalf("worker config SASL_SSL: exit %d, out %q, stderr %q", code, out, stderr)
	}
	// The same file with a wrong password fails in one line, exit 3.
	bad := strings.Replace(content, `password="s3cret"`, `password="nope"`, 1)
	if err := os.WriteFile(props, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "--worker-config", props, "--timeout", "3s", "inspect", "status")
	if code != ExitInput || !strings.Contains(stderr, `authentication failed for user "connect"`) {
		t.Errorf("wrong password: exit %d, %q", code, stderr)
	}
}

// firstLineWriter collects output written from another goroutine and closes
// first when the first complete line arrives.
type firstLineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func newFirstLineWriter() *firstLineWriter { return &firstLineWriter{first: make(chan struct{})} }

func (w *firstLineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if bytes.IndexByte(w.buf.Bytes(), '\n') >= 0 {
		w.once.Do(func() { close(w.first) })
	}
	return n, err
}

func (w *firstLineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// hasCommand says whether words name a command of connectscope.
func hasCommand(t *testing.T, words []string) bool {
	t.Helper()
	cmds := NewApp(BuildInfo{}, Streams{}).Commands
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			break
		}
		var next *urfave.Command
		for _, c := range cmds {
			if c.Name == w {
				next = c
			}
		}
		if next == nil {
			return false
		}
		cmds = next.Subcommands
	}
	return true
}
