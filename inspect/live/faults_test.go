package live_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// expectLiveError runs ReadLive and checks that it fails with a one-line
// *LiveError whose message contains every want, and that it gave up in
// about the timeout (generously bounded: this guards "never hangs").
func expectLiveError(t *testing.T, opts live.Options, wants ...string) {
	t.Helper()
	start := time.Now()
	ds, err := live.Read(context.Background(), opts)
	took := time.Since(start)
	if err == nil {
		t.Fatalf("ReadLive succeeded (%d records), want an error", len(ds.Records))
	}
	if ds != nil {
		t.Errorf("a failed read returned a dataset")
	}
	var le *live.Error
	if !errors.As(err, &le) {
		t.Errorf("error %T is not a *LiveError: %v", err, err)
	}
	msg := err.Error()
	t.Logf("after %s: %s", took.Round(time.Millisecond), msg)
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
	if limit := 2*opts.Conn.Timeout + 3*time.Second; took > limit {
		t.Errorf("gave up after %s (timeout %s)", took, opts.Conn.Timeout)
	}
}

func quickOpts(addrs ...string) live.Options {
	return live.Options{Conn: live.ConnOptions{Bootstrap: addrs, Timeout: 2 * time.Second}}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string { return kafkatest.RefusedAddr(t) }

func TestLiveFaultUnreachableBootstrap(t *testing.T) {
	t.Parallel()
	expectLiveError(t, quickOpts(closedPort(t)), "reading cluster metadata", "connection refused", "nothing listens there")
}

func TestLiveFaultWrongPort(t *testing.T) {
	t.Parallel()
	// Something listens, but it is not Kafka: it answers nothing useful and hangs up.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
			c.Close()
		}
	}()
	expectLiveError(t, quickOpts(l.Addr().String()), "reading cluster metadata", "does not speak the Kafka protocol", "the bootstrap servers")
}

func TestLiveFaultSilentPort(t *testing.T) {
	t.Parallel()
	// Accepts and never answers: the read gives up at the timeout and says so.
	silent := kafkatest.SilentListener(t)
	expectLiveError(t, quickOpts(silent), "timed out after 2s", "raise the timeout")
}

func TestLiveFaultMissingTopic(t *testing.T) {
	t.Parallel()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, kafkatest.ConfigTopic), kfake.SeedTopics(25, kafkatest.OffsetTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	expectLiveError(t, quickOpts(c.ListenAddrs()...), "reading topic connect-status", "does not exist", "check the status topic name")
	// And nothing was created by asking.
	cl, _ := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	defer cl.Close()
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(kafkatest.StatusTopic)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Topics[0].ErrorCode != kerr.UnknownTopicOrPartition.Code {
		t.Errorf("connect-status exists after the read")
	}
}

func TestLiveFaultSASL(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "admin", "admin-secret"),
		kfake.Superuser("SCRAM-SHA-512", "admin512", "secret512"),
		kfake.Superuser("PLAIN", "plainuser", "plainpass"))
	for _, mech := range []struct{ m, u, p string }{
		{"SCRAM-SHA-256", "admin", "admin-secret"}, {"scram-sha-512", "admin512", "secret512"}, {"PLAIN", "plainuser", "plainpass"},
	} {
		opts := quickOpts(c.Addrs...)
		opts.Conn.SASLMechanism, opts.Conn.SASLUser, opts.Conn.SASLPassword = mech.m, mech.u, mech.p
		if _, err := live.Read(context.Background(), opts); err != nil {
			t.Errorf("%s: %v", mech.m, err)
		}
	}
	opts := quickOpts(c.Addrs...)
	opts.Conn.SASLMechanism, opts.Conn.SASLUser, opts.Conn.SASLPassword = "SCRAM-SHA-256", "admin", "wrong"
	expectLiveError(t, opts, "authentication failed for user \"admin\" with SCRAM-SHA-256", "password")

	// No SASL at all against a SASL listener.
	expectLiveError(t, quickOpts(c.Addrs...), "reading cluster metadata", "expects SASL")
}

func TestLiveTLS(t *testing.T) {
	t.Parallel()
	m := kafkatest.NewTLS(t)
	c := kafkatest.New(t, kfake.TLS(m.Mutual))
	clientCert, err := tls.LoadX509KeyPair(m.ClientCertFile, m.ClientKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	ca, _ := os.ReadFile(m.CAFile)
	pool.AppendCertsFromPEM(ca)
	c.ClientOpts = []kgo.Opt{kgo.DialTLSConfig(&tls.Config{RootCAs: pool, Certificates: []tls.Certificate{clientCert}, MinVersion: tls.VersionTLS12})}
	want := c.SeedConnect(t)

	good := quickOpts(c.Addrs...)
	good.Conn.TLS, good.Conn.CAFile, good.Conn.CertFile, good.Conn.KeyFile = true, m.CAFile, m.ClientCertFile, m.ClientKeyFile
	ds, err := live.Read(context.Background(), good)
	if err != nil {
		t.Fatalf("mutual TLS: %v", err)
	}
	if n := countByTopic(ds.Records)[kafkatest.ConfigTopic]; n != want[kafkatest.ConfigTopic] {
		t.Errorf("read %d config records over TLS", n)
	}
	// Inline PEM (as a worker config's ssl.truststore.certificates) works the same.
	inline := good
	inline.Conn.CAFile, inline.Conn.CertFile, inline.Conn.KeyFile = "", "", ""
	inline.Conn.CAPEM = ca
	inline.Conn.CertPEM, _ = os.ReadFile(m.ClientCertFile)
	inline.Conn.KeyPEM, _ = os.ReadFile(m.ClientKeyFile)
	if _, err := live.Read(context.Background(), inline); err != nil {
		t.Errorf("inline PEM: %v", err)
	}

	t.Run("untrusted CA", func(t *testing.T) {
		t.Parallel()
		o := good
		o.Conn.CAFile = m.WrongCAFile
		expectLiveError(t, o, "not trusted", "the TLS CA file")
	})
	t.Run("wrong server name", func(t *testing.T) {
		t.Parallel()
		o := good
		o.Conn.ServerName = "kafka.example.com"
		expectLiveError(t, o, "does not name this host", "the TLS server name")
	})
	t.Run("no hostname check", func(t *testing.T) {
		t.Parallel()
		o := good
		o.Conn.ServerName, o.Conn.NoHostnameCheck = "kafka.example.com", true
		if _, err := live.Read(context.Background(), o); err != nil {
			t.Errorf("chain-only verification: %v", err)
		}
		o.Conn.CAFile = m.WrongCAFile
		expectLiveError(t, o, "not trusted")
	})
	t.Run("plaintext client to TLS broker", func(t *testing.T) {
		t.Parallel()
		expectLiveError(t, quickOpts(c.Addrs...), "reading cluster metadata", "add TLS")
	})
	t.Run("TLS client to plaintext broker", func(t *testing.T) {
		t.Parallel()
		plain := kafkatest.New(t)
		o := quickOpts(plain.Addrs...)
		o.Conn.TLS = true
		expectLiveError(t, o, "reading cluster metadata", "drop TLS")
	})
}

func TestLiveFaultCoordinatorMoves(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.NumBrokers(3))
	c.SeedConnect(t)
	meta, _ := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 0, URL: "http://w:8083/", ConfigOffset: 0})
	c.JoinMember(t, kafkatest.Group, "connect", "w1", []kafkatest.Protocol{{Name: "default", Metadata: meta}},
		func(string, map[string][]byte) map[string][]byte { return nil })

	// The coordinator moves, and the old one answers NOT_COORDINATOR a few times.
	c.RehashCoordinators()
	h := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeGroups}, Group: kafkatest.Group, Err: kerr.NotCoordinator, Count: 3})
	ds, err := live.Read(context.Background(), quickOpts(c.Addrs...))
	if err != nil {
		t.Fatalf("ReadLive: %v", err)
	}
	if h.Hits() != 3 || ds.Group.State != inspect.GroupStable || len(ds.Group.Members) != 1 {
		t.Errorf("hits %d, group %+v", h.Hits(), ds.Group)
	}

	// A coordinator that never becomes available: one line, within the timeout.
	h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeGroups}, Group: kafkatest.Group, Err: kerr.CoordinatorNotAvailable, Count: -1})
	defer h.Remove()
	expectLiveError(t, quickOpts(c.Addrs...), "describing group connect-cluster", "COORDINATOR_NOT_AVAILABLE")
}

func TestLiveFaultLeaderMoves(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.NumBrokers(3))
	recs := offsetRecords(3000)
	c.ProduceKeyed(t, recs...)
	// Each fetch for partition 0 first meets NOT_LEADER_FOR_PARTITION twice.
	h := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: kafkatest.OffsetTopic, Partitions: []int32{0}, Err: kerr.NotLeaderForPartition, Count: 2})
	c.ShufflePartitionLeaders()
	ds, err := live.Read(context.Background(), quickOpts(c.Addrs...))
	if err != nil {
		t.Fatalf("ReadLive: %v", err)
	}
	if n := countByTopic(ds.Records)[kafkatest.OffsetTopic]; n != len(recs) || h.Hits() != 2 {
		t.Errorf("read %d of %d, fault hits %d", n, len(recs), h.Hits())
	}
}

func offsetRecords(n int) []*kgo.Record {
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: kafkatest.OffsetTopic, Partition: -1,
			Key: []byte(`["src",{"n":` + itoa(i) + `}]`), Value: []byte(`{"position":` + itoa(i) + `}`)}
	}
	return recs
}

// restartable is a one-broker cluster on a fixed port whose data survives
// a restart (kfake persists to a directory).
type restartable struct {
	t     *testing.T
	port  int
	dir   string
	mu    sync.Mutex
	c     *kfake.Cluster
	addrs []string
}

func newRestartable(t *testing.T) *restartable {
	// The first start takes any free port and keeps it for the restarts; a
	// port found by listening and closing could be taken by a parallel test
	// before the broker binds it.
	r := &restartable{t: t, dir: t.TempDir()}
	r.start()
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.c != nil {
			r.c.Close()
		}
	})
	return r
}

func (r *restartable) start() {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(r.port), kfake.DataDir(r.dir),
		kfake.SeedTopics(1, kafkatest.ConfigTopic), kfake.SeedTopics(25, kafkatest.OffsetTopic), kfake.SeedTopics(5, kafkatest.StatusTopic))
	if err != nil {
		r.t.Errorf("starting kfake: %v", err)
		return
	}
	r.mu.Lock()
	r.c, r.addrs = c, c.ListenAddrs()
	if r.port == 0 && len(r.addrs) > 0 {
		if _, p, err := net.SplitHostPort(r.addrs[0]); err == nil {
			r.port, _ = strconv.Atoi(p)
		}
	}
	r.mu.Unlock()
}

func (r *restartable) stop() {
	r.mu.Lock()
	c := r.c
	r.c = nil
	r.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

func (r *restartable) fill(t *testing.T, n int) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(r.addrs...), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.ProduceSync(context.Background(), offsetRecords(n)...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// onFirstFetch runs fn (in its own goroutine) when the broker receives the
// read's first Fetch, and drops that request's connection.
func (r *restartable) onFirstFetch(fn func()) {
	var once sync.Once
	r.c.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		handled := false
		once.Do(func() { handled = true; go fn() })
		if handled {
			return nil, errors.New("broker going down"), true
		}
		return nil, nil, false
	})
}

func TestLiveFaultBrokerRestartsMidRead(t *testing.T) {
	t.Parallel()
	r := newRestartable(t)
	r.fill(t, 5000)
	r.onFirstFetch(func() {
		r.stop()
		time.Sleep(700 * time.Millisecond)
		r.start()
	})
	opts := quickOpts(r.addrs...)
	opts.Conn.Timeout = 5 * time.Second
	ds, err := live.Read(context.Background(), opts)
	if err != nil {
		t.Fatalf("ReadLive across a restart: %v", err)
	}
	if n := countByTopic(ds.Records)[kafkatest.OffsetTopic]; n != 5000 {
		t.Errorf("read %d of 5000 records across the restart", n)
	}
}

func TestLiveFaultBrokerGoneMidRead(t *testing.T) {
	t.Parallel()
	r := newRestartable(t)
	r.fill(t, 2000)
	r.onFirstFetch(r.stop)
	expectLiveError(t, quickOpts(r.addrs...), "reading connect-", "no progress for 2s", "nothing listens there")
}

func TestLiveInterrupted(t *testing.T) {
	t.Parallel()
	r := newRestartable(t)
	r.fill(t, 2000)
	ctx, cancel := context.WithCancel(context.Background())
	r.onFirstFetch(func() { cancel() })
	opts := quickOpts(r.addrs...)
	opts.Conn.Timeout = 10 * time.Second
	ds, err := live.Read(ctx, opts)
	if err == nil || ds != nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupted read: ds=%v err=%v", ds != nil, err)
	}
}

func TestLiveMissingTopicNotShown(t *testing.T) {
	t.Parallel()
	// Only the config topic exists; a view of configs alone still works and
	// says which topics are missing, one of the status topic fails.
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, kafkatest.ConfigTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opts := quickOpts(c.ListenAddrs()...)
	opts.Read = []string{kafkatest.ConfigTopic}
	ds, err := live.Read(context.Background(), opts)
	if err != nil {
		t.Fatalf("configs view: %v", err)
	}
	exists := map[string]bool{}
	for _, d := range ds.TopicDescriptions {
		exists[d.Name] = d.Exists
	}
	if !exists[kafkatest.ConfigTopic] || exists[kafkatest.StatusTopic] || exists[kafkatest.OffsetTopic] || len(ds.TopicDescriptions) != 3 {
		t.Errorf("descriptions %+v", ds.TopicDescriptions)
	}
	if _, ok := ds.EndOffsets[kafkatest.StatusTopic]; ok {
		t.Errorf("end offsets listed for a missing topic")
	}
	opts.Read = []string{}
	if _, err := live.Read(context.Background(), opts); err != nil {
		t.Errorf("members view: %v", err)
	}
	opts.Read = []string{kafkatest.StatusTopic}
	expectLiveError(t, opts, "reading topic connect-status", "does not exist")
}
