package commands

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A missing Connect group reads the same whatever DescribeGroups version
// the broker answers: kfake, like Kafka 4.x, answers v6 with
// GROUP_ID_NOT_FOUND where older versions say Dead with no error. Either
// way it is "not found" (exit 4), never a broker error code.
func TestLiveMissingGroupIsNotFound(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "members", "-o", "json")
	if code != ExitNotFound {
		t.Fatalf("exit %d, want %d (not found): %s", code, ExitNotFound, stderr)
	}
	if stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `group "connect-cluster" not found`) {
		t.Errorf("want one not-found line on stderr and nothing on stdout; got stdout %q stderr %q", stdout, stderr)
	}
	if strings.Contains(stderr, "error code") {
		t.Errorf("GROUP_ID_NOT_FOUND reported as a broker error: %s", stderr)
	}
}

// joinOtherGroup runs a client of another group kind in group (opts say
// which) until the broker lists the group as Stable with type typ; the
// client is returned so the test can close it.
func joinOtherGroup(t *testing.T, c *kafkatest.Cluster, group, typ string, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(c.Bootstrap()), kgo.ClientID("other-app"), kgo.ConsumeTopics(kafkatest.StatusTopic)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	adm := kadm.NewClient(c.Client(t))
	for ctx.Err() == nil {
		pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
		cl.PollFetches(pctx)
		pcancel()
		listed, err := adm.ListGroups(ctx)
		if g, ok := listed[group]; err == nil && ok && g.GroupType == typ && g.State == "Stable" {
			return cl
		}
	}
	t.Fatalf("group %s never became a stable %s-type group", group, typ)
	return nil
}

func k17Findings(t *testing.T, c *kafkatest.Cluster) []map[string]any {
	t.Helper()
	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "check", "topics", "-o", "json", "--jq", `[.findings[] | select(.rule == "K17")]`)
	if code > 1 {
		t.Fatalf("check topics: exit %d: %s", code, stderr)
	}
	var fs []map[string]any
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	return fs
}

// A share group holds the id: K17 whatever its state.
func TestLiveK17ShareGroup(t *testing.T) {
	t.Parallel() // waits on the network mostly
	c := kafkatest.New(t)
	c.SeedConnect(t)
	joinOtherGroup(t, c, kafkatest.Group, "share", kgo.ShareGroup(kafkatest.Group))
	if fs := k17Findings(t, c); len(fs) != 1 {
		t.Errorf("K17 findings %v, want one for the share group", fs)
	}
}

// An empty KIP-848 consumer group is taken over by the first worker: no K17,
// and inspect members says so.
func TestLiveK17EmptyConsumerGroupIsNoFinding(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	cl := joinOtherGroup(t, c, kafkatest.Group, "consumer", kgo.ConsumerGroup(kafkatest.Group), kgo.ServerSideBalancer(), kgo.DisableAutoCommit())
	if fs := k17Findings(t, c); len(fs) != 1 {
		t.Fatalf("K17 findings %v with a member in the consumer group, want one", fs)
	}
	cl.Close() // leaves the group
	adm := kadm.NewClient(c.Client(t))
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		listed, err := adm.ListGroups(ctx)
		cancel()
		if err == nil && listed[kafkatest.Group].State == "Empty" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the consumer group did not become Empty: %v %v", listed, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if fs := k17Findings(t, c); len(fs) != 0 {
		t.Errorf("K17 findings %v for an empty consumer group, want none", fs)
	}
	stdout, _, _ := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "members", "--jq", ".note")
	if !strings.Contains(stdout, "empty consumer group, which the first Connect worker to join turns into a classic group") {
		t.Errorf("inspect members note: %s", stdout)
	}
}

// A KIP-848 consumer group holding the Connect group.id is what DescribeGroups
// hides; check topics reports it as K17 and inspect members says what holds
// the id.
func TestLiveK17ConsumerGroupHoldsConnectID(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	// A KIP-848 consumer (server-side assignment).
	joinOtherGroup(t, c, kafkatest.Group, "consumer", kgo.ConsumerGroup(kafkatest.Group), kgo.ServerSideBalancer(), kgo.DisableAutoCommit())

	stdout, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "check", "topics", "-o", "json")
	if code != 1 {
		t.Fatalf("check topics: exit %d, want 1 (an error finding): %s %s", code, stderr, stdout)
	}
	var rep struct {
		Findings []struct {
			Rule    string         `json:"rule"`
			Subject string         `json:"subject"`
			Values  map[string]any `json:"values"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "K17" {
			found = true
			if f.Subject != "group "+kafkatest.Group || f.Values["group_type"] != "consumer" {
				t.Errorf("K17 finding %+v, want subject group %s and group_type consumer", f, kafkatest.Group)
			}
		}
	}
	if !found {
		t.Errorf("no K17 finding: %s", stdout)
	}

	stdout, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", "members", "-o", "json")
	if code != 0 {
		t.Fatalf("inspect members: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "held by a consumer group") || strings.Contains(stdout, "dead or does not exist") {
		t.Errorf("inspect members does not say a consumer group holds the id: %s", stdout)
	}
}
