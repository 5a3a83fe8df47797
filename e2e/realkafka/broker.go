//go:build e2e

package realkafka

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// BrokerOptions configure a KRaft broker.
type BrokerOptions struct {
	Version string            // a pinned version; default Newest4x
	Props   map[string]string // server.properties entries, added to or replacing the defaults
	// Loggers sets logger levels, e.g. {"kafka.request.logger": "DEBUG"}.
	Loggers map[string]string
	HeapMB  int // default 384
	// TLS adds an SSL listener (PEM key store; see PKI); MutualTLS makes it
	// require a client certificate.
	TLS, MutualTLS bool
	// SASL adds SASL_SSL and SASL_PLAINTEXT listeners with PLAIN,
	// SCRAM-SHA-256 and SCRAM-SHA-512 for Users (default DefaultUsers).
	SASL  bool
	Users map[string]string
	// Dir holds the broker's config, data and log; default a new temporary
	// directory removed by Close.
	Dir string
}

// Broker is a running single-node KRaft cluster (broker and controller in
// one JVM) on loopback.
type Broker struct {
	jars      Jars
	dir       string
	ownDir    bool
	props     map[string]string
	listeners map[string]string // listener name -> 127.0.0.1:port
	proc      *jvm
	pki       *PKI
	users     map[string]string

	mu        sync.Mutex
	workers   []*Worker
	watched   map[string]bool // tests whose failure prints the broker log
	workerSeq int
}

// StartBroker starts a broker for one test, stopped when the test ends; on
// failure the test prints the tail of the broker's log.
func StartBroker(t testing.TB, opts BrokerOptions) *Broker {
	t.Helper()
	Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a cold cache runs Maven
	defer cancel()
	b, err := Launch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	b.Watch(t)
	return b
}

// Launch starts a broker outside a test (for a TestMain sharing one broker
// across a package's tests); the caller must Close it. It returns once the
// broker answers metadata requests.
func Launch(ctx context.Context, opts BrokerOptions) (*Broker, error) {
	if opts.Version == "" {
		opts.Version = Newest4x
	}
	if opts.HeapMB == 0 {
		opts.HeapMB = 384
	}
	jars, err := Resolve(ctx, opts.Version)
	if err != nil {
		return nil, err
	}
	b := &Broker{jars: jars, dir: opts.Dir, listeners: map[string]string{}, watched: map[string]bool{}}
	if b.dir == "" {
		if b.dir, err = os.MkdirTemp("", "realkafka-broker-"); err != nil {
			return nil, fmt.Errorf("creating the broker directory: %w", err)
		}
		b.ownDir = true
	}
	ok := false
	defer func() {
		if !ok {
			b.Close()
		}
	}()

	ports, err := freePorts(5)
	if err != nil {
		return nil, err
	}
	plain, controller := fmt.Sprintf("127.0.0.1:%d", ports[0]), fmt.Sprintf("127.0.0.1:%d", ports[1])
	b.listeners["PLAINTEXT"], b.listeners["CONTROLLER"] = plain, controller
	b.props = map[string]string{
		"process.roles":                                    "broker,controller",
		"node.id":                                          "1",
		"controller.quorum.voters":                         "1@" + controller,
		"listeners":                                        "PLAINTEXT://" + plain + ",CONTROLLER://" + controller,
		"advertised.listeners":                             "PLAINTEXT://" + plain,
		"controller.listener.names":                        "CONTROLLER",
		"inter.broker.listener.name":                       "PLAINTEXT",
		"listener.security.protocol.map":                   "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
		"log.dirs":                                         filepath.Join(b.dir, "data"),
		"num.partitions":                                   "1",
		"default.replication.factor":                       "1",
		"offsets.topic.replication.factor":                 "1",
		"offsets.topic.num.partitions":                     "5",
		"transaction.state.log.replication.factor":         "1",
		"transaction.state.log.min.isr":                    "1",
		"transaction.state.log.num.partitions":             "5",
		"share.coordinator.state.topic.replication.factor": "1",
		"share.coordinator.state.topic.min.isr":            "1",
		"group.initial.rebalance.delay.ms":                 "0",
		// Lets tests use short session timeouts, so a killed worker is
		// noticed in seconds rather than Connect's 10 s default.
		"group.min.session.timeout.ms": "1000",
	}
	if err := b.securityProps(opts, ports[2:]); err != nil {
		return nil, err
	}
	for k, v := range opts.Props {
		b.props[k] = v
	}
	cfg := filepath.Join(b.dir, "server.properties")
	if err := WriteProperties(cfg, b.props); err != nil {
		return nil, err
	}
	logFlags, err := logConfig(b.dir, opts.Loggers)
	if err != nil {
		return nil, err
	}
	flags := append(jvmFlags(opts.HeapMB), logFlags...)
	flags = append(flags, "-cp", jars.Classpath())

	if err := b.format(ctx, flags, cfg); err != nil {
		return nil, err
	}
	b.proc = &jvm{name: "broker " + opts.Version, logPath: filepath.Join(b.dir, "broker.log")}
	if err := b.proc.start(append(flags, "kafka.Kafka", cfg)); err != nil {
		return nil, err
	}
	if err := b.waitReady(ctx); err != nil {
		return nil, fmt.Errorf("%w\n--- broker log (tail) ---\n%s", err, b.LogTail(40))
	}
	ok = true
	return b, nil
}

// format runs kafka-storage format for the data directory.
func (b *Broker) format(ctx context.Context, flags []string, cfg string) error {
	java, err := javaPath()
	if err != nil {
		return fmt.Errorf("formatting the broker storage: java not found: %s", howToGet)
	}
	args := append(append([]string{}, flags...), "kafka.tools.StorageTool", "format", "-t", clusterID(), "-c", cfg, "--ignore-formatted")
	args = append(args, b.scramFormatArgs()...)
	cmd := exec.CommandContext(ctx, java, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("formatting the broker storage (kafka-storage format): %w\n%s", err, tail(string(out), 30))
	}
	return nil
}

// clusterID is a random KRaft cluster id (a base64url UUID, as
// kafka-storage random-uuid prints). Like Kafka's own generator it never
// starts with '-': the storage tool's argument parser would take such an
// id for an option (one launch in 64 failed that way).
func clusterID() string {
	var u [16]byte
	for {
		_, _ = rand.Read(u[:])
		if id := base64.RawURLEncoding.EncodeToString(u[:]); id[0] != '-' {
			return id
		}
	}
}

func (b *Broker) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	return poll(ctx, "the broker to answer metadata on "+b.Bootstrap(), 300*time.Millisecond, b.alive,
		func(ctx context.Context) error {
			cl, err := kgo.NewClient(kgo.SeedBrokers(b.Bootstrap()), kgo.DialTimeout(2*time.Second))
			if err != nil {
				return err
			}
			defer cl.Close()
			rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			md, err := kadm.NewClient(cl).BrokerMetadata(rctx)
			if err != nil {
				return err
			}
			if len(md.Brokers) == 0 || md.Controller < 0 {
				return fmt.Errorf("metadata lists %d brokers, controller %d", len(md.Brokers), md.Controller)
			}
			return nil
		})
}

func (b *Broker) alive() error {
	if b.proc.exited() {
		return fmt.Errorf("the broker exited: %v", b.proc.exitErr())
	}
	return nil
}

// Version is the broker's Kafka version.
func (b *Broker) Version() string { return b.jars.Version }

// Bootstrap is the PLAINTEXT listener, host:port.
func (b *Broker) Bootstrap() string { return b.listeners["PLAINTEXT"] }

// Listener is the host:port of a listener by name (PLAINTEXT, SSL,
// SASL_SSL, SASL_PLAINTEXT, CONTROLLER), or "" when the broker has none.
func (b *Broker) Listener(name string) string { return b.listeners[name] }

// Props are the broker's server.properties as written.
func (b *Broker) Props() map[string]string {
	out := make(map[string]string, len(b.props))
	for k, v := range b.props {
		out[k] = v
	}
	return out
}

// Dir is the broker's directory (config, data, broker.log, workers' files).
func (b *Broker) Dir() string { return b.dir }

// Client is a franz-go client on the PLAINTEXT listener, closed when the
// test ends.
func (b *Broker) Client(t testing.TB, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(b.Bootstrap())}, opts...)...)
	if err != nil {
		t.Fatalf("client for the broker at %s: %v", b.Bootstrap(), err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// LogTail is the last n lines of the broker's log.
func (b *Broker) LogTail(n int) string {
	if b.proc == nil {
		return "(broker not started)"
	}
	return b.proc.logTail(n)
}

// Watch makes t print the tail of the broker's log if it fails (once per
// test; StartBroker and StartWorker call it).
func (b *Broker) Watch(t testing.TB) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.watched[t.Name()] {
		return
	}
	b.watched[t.Name()] = true
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("--- broker %s log (tail) %s ---\n%s", b.Version(), b.proc.logPath, b.LogTail(60))
		}
	})
}

// Close kills the workers started on this broker, stops the broker and
// removes its directory when Launch created it.
func (b *Broker) Close() {
	b.mu.Lock()
	workers := b.workers
	b.workers = nil
	b.mu.Unlock()
	for _, w := range workers {
		_ = w.Kill()
	}
	if b.proc != nil {
		_ = b.proc.signal(syscall.SIGTERM, 20*time.Second)
	}
	if b.ownDir && os.Getenv("REALKAFKA_KEEP") == "" {
		_ = os.RemoveAll(b.dir)
	}
}

// Stop stops the broker cleanly (SIGTERM); Close also cleans up.
func (b *Broker) Stop() error { return b.proc.signal(syscall.SIGTERM, 20*time.Second) }

func (b *Broker) nextWorker() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.workerSeq++
	return b.workerSeq
}
