//go:build e2e

package realbroker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// newestMins are the lowest request versions the newest 4.x broker accepts
// (KIP-896 removed older ones in 4.0), read from that broker's ApiVersions;
// the other versions' runs hold connectscope to them too.
var newestMins struct {
	sync.Mutex
	m map[int16]int16
}

// TestRealBroker runs connectscope against the newest 4.x and the newest
// 3.9.x broker, one at a time.
func TestRealBroker(t *testing.T) {
	realkafka.Require(t)
	for _, v := range []string{realkafka.Newest4x, realkafka.Newest39} {
		t.Run(v, func(t *testing.T) {
			start := time.Now()
			c := startCluster(t, realkafka.BrokerOptions{Version: v, TLS: true, SASL: true})
			t.Logf("kafka %s: broker and worker settled in %s", v, time.Since(start).Round(time.Millisecond))
			t.Run("every read command, no write request, no removed API version", func(t *testing.T) { testReadOnly(t, c) })
			t.Run("check topics against the real topic configs", func(t *testing.T) { testCheckTopics(t, c) })
			t.Run("check timeouts against the real broker limits", func(t *testing.T) { testBrokerLimits(t, c) })
			t.Run("a missing group reads as missing", func(t *testing.T) { testMissingGroup(t, c) })
			t.Run("members keep the broker's JoinGroup order", func(t *testing.T) { testMemberOrder(t, c) })
			t.Run("TLS and SASL/SCRAM listeners", func(t *testing.T) { testSecurity(t, c) })
			if strings.HasPrefix(v, "4.") { // KIP-848 groups are on by default from 4.0
				t.Run("K17 finds a KIP-848 consumer, a share or a classic consumer group on the Connect group.id", func(t *testing.T) { testK17(t, c) })
			}
		})
	}
}

// readCommands are every command that reads the cluster, with the
// arguments that make it do its whole job.
func readCommands(t *testing.T, c *cluster) [][]string {
	snap := filepath.Join(t.TempDir(), "cluster.snapshot.json")
	wf := c.workerFile
	cmds := [][]string{
		{"inspect", "configs", "-o", "json"},
		{"inspect", "status", "-o", "json"},
		{"inspect", "offsets", "-o", "json"},
		{"inspect", "connectors", "-o", "json"},
		{"inspect", "members", "-o", "json"},
		{"inspect", "sinks", "-o", "json"},
		{"snapshot", "--file", snap},
		{"watch", "--duration", "2s"},
		{"plan", "join", "--add", "1", "-o", "json"},
		{"plan", "rolling-restart", "--restart-time", "30s", "-o", "json"},
		{"check", "topics", "-o", "json"},
		{"check", "balance", "-o", "json"},
		// Without -b the checks of worker files stay offline; with it they
		// also read the broker's limits and the group.
		{"--worker-config", wf, "-b", c.b.Bootstrap(), "check", "timeouts", "-o", "json"},
		{"--worker-config", wf, "-b", c.b.Bootstrap(), "check", "upgrade", "-o", "json"},
		{"--worker-config", wf, "-b", c.b.Bootstrap(), "check", "all", "-o", "json"},
		{"--worker-config", wf, "inspect", "members", "-o", "json"}, // the connection from the worker file alone
	}
	return cmds
}

// testReadOnly runs every read command and reads the broker's own request
// log: connectscope's client id sent requests, none of them writes, and
// none below the versions the newest 4.x broker still accepts.
func testReadOnly(t *testing.T, c *cluster) {
	log := newRequestLog(c.b.Dir())
	mins := c.apiMins(t)
	forbidden := map[int16]bool{}
	for _, k := range kafkatest.ForbiddenKeys {
		forbidden[int16(k)] = true
	}
	used := map[string]map[int16]bool{} // request name -> versions connectscope sent
	defer func() { t.Logf("kafka %s: request versions connectscope sent: %s", c.b.Version(), versionsLine(used)) }()
	for _, args := range readCommands(t, c) {
		name := strings.Join(args, " ")
		mark := log.mark(t)
		var stdout, stderr string
		var code int
		if args[0] == "--worker-config" {
			stdout, stderr, code = run(append([]string{"--timeout", "20s"}, args...)...)
		} else {
			stdout, stderr, code = c.live(args...)
		}
		if code != 0 && !(slices.Contains(args, "check") && code == 1) {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		if slices.Contains(args, "json") && !json.Valid([]byte(stdout)) {
			t.Errorf("%s: output is not JSON: %.300s", name, stdout)
		}
		time.Sleep(200 * time.Millisecond) // the broker logs a request when its response is sent
		seen := map[string]int{}
		for _, r := range log.since(t, mark) {
			if r.ClientID != "connectscope" {
				continue
			}
			seen[r.name()]++
			if used[r.name()] == nil {
				used[r.name()] = map[int16]bool{}
			}
			used[r.name()][r.Version] = true
			if forbidden[r.Key] {
				t.Errorf("%s sent %s v%d, a write request", name, r.name(), r.Version)
			}
			if min, ok := mins[r.Key]; ok && r.Version < min {
				t.Errorf("%s sent %s v%d; Kafka %s accepts v%d and later (KIP-896)", name, r.name(), r.Version, realkafka.Newest4x, min)
			}
		}
		if seen["Metadata"] == 0 || seen["DescribeGroups"] == 0 {
			t.Errorf("%s: the broker logged no Metadata and DescribeGroups from client id connectscope (seen: %v)", name, seen)
		}
		t.Logf("%s: %v", name, seen)
	}
}

func versionsLine(used map[string]map[int16]bool) string {
	var parts []string
	for name, vs := range used {
		var list []string
		for v := range vs {
			list = append(list, fmt.Sprintf("v%d", v))
		}
		slices.Sort(list)
		parts = append(parts, name+" "+strings.Join(list, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// apiMins are the lowest request versions to hold connectscope to: the
// newest 4.x broker's, remembered from its run; else this broker's own.
func (c *cluster) apiMins(t *testing.T) map[int16]int16 {
	newestMins.Lock()
	defer newestMins.Unlock()
	if newestMins.m != nil {
		return newestMins.m
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	vs, err := c.admin(t).ApiVersions(ctx)
	if err != nil {
		t.Fatalf("ApiVersions: %v", err)
	}
	m := map[int16]int16{}
	vs.Each(func(v kadm.BrokerApiVersions) {
		v.EachKeySorted(func(key, min, _ int16) { m[key] = max(m[key], min) })
	})
	if c.b.Version() == realkafka.Newest4x {
		newestMins.m = m
	}
	return m
}

type finding struct {
	Rule    string         `json:"rule"`
	Subject string         `json:"subject"`
	Values  map[string]any `json:"values"`
}

func findings(t *testing.T, name, stdout string) []finding {
	t.Helper()
	var rep struct {
		Findings []finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%s: %v: %.300s", name, err, stdout)
	}
	return rep.Findings
}

func rules(fs []finding) map[string][]finding {
	out := map[string][]finding{}
	for _, f := range fs {
		out[f.Rule] = append(out[f.Rule], f)
	}
	return out
}

// testCheckTopics compares check topics' view of the internal topics with
// what the broker says of them, and makes a badly created config topic fire
// K1 and K2.
func testCheckTopics(t *testing.T, c *cluster) {
	adm := c.admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stdout, stderr, code := c.live("check", "topics", "-o", "json")
	if code > 1 {
		t.Fatalf("check topics: exit %d: %s", code, stderr)
	}
	var rep struct {
		Topics []struct {
			Role              string  `json:"role"`
			Name              string  `json:"name"`
			Exists            *bool   `json:"exists"`
			Partitions        *int    `json:"partitions"`
			ReplicationFactor *int    `json:"replication_factor"`
			CleanupPolicy     *string `json:"cleanup_policy"`
			MinInsyncReplicas *string `json:"min_insync_replicas"`
		} `json:"topics"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	names := []string{"connect-configs", "connect-offsets", "connect-status"}
	details, err := adm.ListTopics(ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := adm.DescribeTopicConfigs(ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Topics) != 3 {
		t.Fatalf("check topics shows %d topics, want 3: %s", len(rep.Topics), stdout)
	}
	for _, v := range rep.Topics {
		d := details[v.Name]
		rc, err := cfgs.On(v.Name, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		want := map[string]string{}
		for _, cv := range rc.Configs {
			if cv.Value != nil {
				want[cv.Key] = *cv.Value
			}
		}
		if v.Exists == nil || !*v.Exists || v.Partitions == nil || *v.Partitions != len(d.Partitions) ||
			v.ReplicationFactor == nil || *v.ReplicationFactor != d.Partitions.NumReplicas() ||
			v.CleanupPolicy == nil || *v.CleanupPolicy != want["cleanup.policy"] ||
			v.MinInsyncReplicas == nil || *v.MinInsyncReplicas != want["min.insync.replicas"] {
			t.Errorf("check topics shows %s as %s; the broker: %d partitions, RF %d, cleanup.policy %s, min.insync.replicas %s",
				v.Name, show(v), len(d.Partitions), d.Partitions.NumReplicas(), want["cleanup.policy"], want["min.insync.replicas"])
		}
	}
	got := rules(findings(t, "check topics", stdout))
	if len(got["K5"]) != 3 { // the harness's workers create every topic with RF 1
		t.Errorf("K5 (RF below 3) for %d topics, want 3: %v", len(got["K5"]), got)
	}
	for _, id := range []string{"K1", "K2", "K12", "K15", "K17"} {
		if len(got[id]) > 0 {
			t.Errorf("%s fired on the workers' own topics: %v", id, got[id])
		}
	}

	// A config topic made by hand with two partitions and delete.
	if _, err := adm.CreateTopic(ctx, 2, 1, map[string]*string{"cleanup.policy": kadm.StringPtr("delete")}, "hand-made-configs"); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = c.live("--config-topic", "hand-made-configs", "check", "topics", "-o", "json")
	if code != 1 {
		t.Fatalf("check topics --config-topic hand-made-configs: exit %d, want 1: %s", code, stderr)
	}
	got = rules(findings(t, "check topics", stdout))
	if len(got["K1"]) != 1 || len(got["K2"]) != 1 {
		t.Errorf("a 2-partition delete config topic: K1 %v, K2 %v, want one each", got["K1"], got["K2"])
	}
}

func show(v any) string { b, _ := json.Marshal(v); return string(b) }

// testBrokerLimits: check timeouts reads group.max.session.timeout.ms from
// the real broker (set to 120000, not the default 1800000) and judges the
// worker file against it.
func testBrokerLimits(t *testing.T, c *cluster) {
	stdout, stderr, code := c.live("--worker-config", c.workerFile, "check", "timeouts", "-o", "json")
	if code > 1 {
		t.Fatalf("check timeouts: exit %d: %s", code, stderr)
	}
	if got := rules(findings(t, "check timeouts", stdout)); len(got["T3"]) > 0 {
		t.Errorf("T3 fired on the running worker's own settings: %v", got["T3"])
	}
	props, err := os.ReadFile(c.workerFile)
	if err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(t.TempDir(), "long-session.properties")
	if err := os.WriteFile(long, append(props, []byte("\nsession.timeout.ms=150000\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = c.live("--worker-config", long, "check", "timeouts", "-o", "json")
	if code != 1 {
		t.Fatalf("check timeouts with session.timeout.ms=150000: exit %d, want 1: %s %s", code, stderr, stdout)
	}
	t3 := rules(findings(t, "check timeouts", stdout))["T3"]
	if len(t3) != 1 || fmt.Sprint(t3[0].Values["group.max.session.timeout.ms"]) != brokerMaxSession {
		t.Errorf("T3 %v, want one finding naming the broker's group.max.session.timeout.ms %s", t3, brokerMaxSession)
	}
	// K8 reads group.max.size from the broker too: one worker is within 40.
	stdout, _, _ = c.live("check", "balance", "-o", "json")
	if k8 := rules(findings(t, "check balance", stdout))["K8"]; len(k8) > 0 {
		t.Errorf("K8 fired with 1 worker and group.max.size %s: %v", brokerMaxSize, k8)
	}
}

// testMissingGroup: 4.x answers DescribeGroups v6 for an unknown group with
// GROUP_ID_NOT_FOUND, 3.9 with Dead; connectscope says the same for both:
// not found (exit 4), one line, never a broker error code.
func testMissingGroup(t *testing.T, c *cluster) {
	stdout, stderr, code := c.live("-g", "no-such-group", "inspect", "members", "-o", "json")
	if code != 4 {
		t.Fatalf("inspect members -g no-such-group: exit %d, want 4 (not found): %s", code, stderr)
	}
	want := `connectscope: group "no-such-group" not found: no worker is a member (is it the workers' group.id? set it with --group or --worker-config)` + "\n"
	if stdout != "" || stderr != want {
		t.Errorf("stdout %q stderr %q, want nothing and %q", stdout, stderr, want)
	}
	// What the broker itself answered, to show which case this run covers.
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{"no-such-group"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, c.b.Client(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kafka %s: DescribeGroups v%d for an unknown group: state %q, error code %d", c.b.Version(), resp.Version, resp.Groups[0].State, resp.Groups[0].ErrorCode)
}

// testK17: a KIP-848 consumer group on the id the workers would use. The
// real broker hides it from DescribeGroups (GROUP_ID_NOT_FOUND "not a
// classic group"); ListGroups shows it.
func testK17(t *testing.T, c *cluster) {
	for _, tc := range []struct {
		group, typ string
		opts       []kgo.Opt
	}{
		{"taken-by-a-consumer", "consumer", []kgo.Opt{kgo.ConsumerGroup("taken-by-a-consumer"), kgo.ServerSideBalancer(), kgo.DisableAutoCommit()}},
		{"taken-by-a-share-group", "share", []kgo.Opt{kgo.ShareGroup("taken-by-a-share-group")}},
		{"taken-by-a-classic-consumer", "classic", []kgo.Opt{kgo.ConsumerGroup("taken-by-a-classic-consumer"), kgo.DisableAutoCommit()}},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			cl := c.b.Client(t, append([]kgo.Opt{kgo.ClientID("other-app"), kgo.ConsumeTopics("lines")}, tc.opts...)...)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			adm := c.admin(t)
			for {
				pctx, pcancel := context.WithTimeout(ctx, 300*time.Millisecond)
				cl.PollFetches(pctx)
				pcancel()
				listed, err := adm.ListGroups(ctx)
				if g, ok := listed[tc.group]; err == nil && ok && g.GroupType == tc.typ && g.State == "Stable" {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("group %s never listed as a stable %s group: %v %v", tc.group, tc.typ, listed, err)
				}
			}
			stdout, stderr, code := c.live("-g", tc.group, "check", "topics", "-o", "json")
			if code != 1 {
				t.Fatalf("check topics -g %s: exit %d, want 1: %s %s", tc.group, code, stderr, stdout)
			}
			k17 := rules(findings(t, "check topics", stdout))["K17"]
			if len(k17) != 1 || k17[0].Values["group_type"] != tc.typ || k17[0].Subject != "group "+tc.group {
				t.Errorf("K17 %v, want one finding for group %s of type %s", k17, tc.group, tc.typ)
			}
			stdout, _, _ = c.live("-g", tc.group, "inspect", "members", "-o", "json")
			want := "held by a " + tc.typ + " group"
			if tc.typ == "classic" { // DescribeGroups shows it, with its protocol type
				want = `has protocol type \"consumer\", not \"connect\"`
			}
			if !strings.Contains(stdout, want) {
				t.Errorf("inspect members does not say %s: %s", want, stdout)
			}
			if tc.typ == "consumer" {
				workerFailsToJoin(t, c, tc.group)
			}
		})
	}
}

// workerFailsToJoin starts a real Connect worker with group.id group and
// waits for it to report what K17 predicts.
func workerFailsToJoin(t *testing.T, c *cluster, group string) {
	w, err := c.b.NewWorker(realkafka.WorkerOptions{Group: group, Name: "blocked-worker"})
	if err != nil {
		t.Fatal(err)
	}
	w.Watch(t)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Kill() //nolint:errcheck // the broker's Close kills it too
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(w.LogTail(400), "InconsistentGroupProtocolException") {
		if time.Now().After(deadline) {
			t.Fatalf("a worker with group.id %s did not fail with InconsistentGroupProtocolException in 60 s", group)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
