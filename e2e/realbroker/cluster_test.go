//go:build e2e

package realbroker

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands"
	"github.com/connectscope/connectscope/e2e/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Broker limits the tests set, so that check timeouts must read them from
// the real broker rather than assume Kafka's defaults (1800000 and no limit).
const (
	brokerMaxSession = "120000"
	brokerMaxSize    = "40"
)

// cluster is a real broker with one Connect worker running a file source
// (src, writing topic lines) and a file sink (snk, reading lines as
// consumer group connect-snk).
type cluster struct {
	b          *realkafka.Broker
	w          *realkafka.Worker
	workerFile string // the worker's own .properties file
	connectors bool   // src and snk run
}

// ownConnectFile reports whether the plugin path holds connect-file of the
// broker's own version.
func ownConnectFile(ctx context.Context, t *testing.T, version string) bool {
	jars, err := realkafka.Resolve(ctx, version)
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(jars.PluginPath, "connect-file", "connect-file-"+version+".jar"))
	return err == nil
}

func startCluster(t *testing.T, opts realkafka.BrokerOptions) *cluster {
	t.Helper()
	if opts.Loggers == nil {
		opts.Loggers = map[string]string{}
	}
	opts.Loggers["kafka.request.logger"] = "DEBUG" // one line per request, with its client id
	if opts.Props == nil {
		opts.Props = map[string]string{}
	}
	opts.Props["group.max.session.timeout.ms"] = brokerMaxSession
	opts.Props["group.max.size"] = brokerMaxSize
	b := realkafka.StartBroker(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	adm := kadm.NewClient(b.Client(t))
	if _, err := adm.CreateTopic(ctx, 2, 1, nil, "lines"); err != nil {
		t.Fatalf("creating topic lines: %v", err)
	}
	w := b.StartWorker(t, realkafka.WorkerOptions{Props: map[string]string{"offset.flush.interval.ms": "500"}})
	c := &cluster{b: b, w: w, workerFile: filepath.Join(b.Dir(), w.Name(), "worker.properties")}
	if c.connectors = ownConnectFile(ctx, t, b.Version()); !c.connectors {
		// connect-file of another release fails in this runtime (4.3.1's
		// on 4.4.0: NoClassDefFoundError AppInfoParser), so this cluster
		// runs no connectors: the commands still read every topic and the
		// group, only with less in them.
		t.Logf("kafka %s: no connect-file %s on Maven Central; the worker runs without connectors", b.Version(), b.Version())
		return c
	}
	in := filepath.Join(b.Dir(), "in.txt")
	if err := os.WriteFile(in, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]map[string]string{
		"src": {"connector.class": "org.apache.kafka.connect.file.FileStreamSourceConnector", "tasks.max": "1", "file": in, "topic": "lines"},
		"snk": {"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector", "tasks.max": "1", "file": filepath.Join(b.Dir(), "out.txt"), "topics": "lines"},
	} {
		if err := w.RESTRetry(ctx, http.MethodPut, "/connectors/"+name+"/config", cfg, nil); err != nil {
			t.Fatal(err)
		}
	}
	c.waitSettled(ctx, t, adm)
	return c
}

// waitSettled waits until both connectors and their tasks run, the source
// offsets are flushed and the sink group has committed.
func (c *cluster) waitSettled(ctx context.Context, t *testing.T, adm *kadm.Client) {
	t.Helper()
	var last error
	for ctx.Err() == nil {
		if last = c.settled(ctx, adm); last == nil {
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("the Connect cluster did not settle: %v", last)
}

func (c *cluster) settled(ctx context.Context, adm *kadm.Client) error {
	var st map[string]struct {
		Status struct {
			Connector struct{ State string }   `json:"connector"`
			Tasks     []struct{ State string } `json:"tasks"`
		} `json:"status"`
	}
	if err := c.w.REST(ctx, http.MethodGet, "/connectors?expand=status", nil, &st); err != nil {
		return err
	}
	for _, name := range []string{"src", "snk"} {
		s := st[name].Status
		if s.Connector.State != "RUNNING" || len(s.Tasks) != 1 || s.Tasks[0].State != "RUNNING" {
			return errors.New(name + " is not running with one running task yet")
		}
	}
	ends, err := adm.ListEndOffsets(ctx, "connect-offsets")
	if err != nil {
		return err
	}
	flushed := false
	ends.Each(func(o kadm.ListedOffset) { flushed = flushed || o.Offset > 0 })
	if !flushed {
		return errors.New("no source offsets flushed yet")
	}
	fetched, err := adm.FetchOffsets(ctx, "connect-snk")
	if err != nil {
		return err
	}
	total := int64(0)
	fetched.Each(func(o kadm.OffsetResponse) { total += o.At })
	if total < 3 {
		return errors.New("the sink has not committed its three records yet")
	}
	return nil
}

// admin is a kadm client on the PLAINTEXT listener.
func (c *cluster) admin(t *testing.T) *kadm.Client {
	return kadm.NewClient(c.b.Client(t, kgo.ClientID("realbroker-test")))
}

// run executes connectscope in-process and returns stdout, stderr and the
// exit status.
func run(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = commands.Main(append([]string{"connectscope"}, args...), commands.Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, commands.BuildInfo{Version: "v0.0.0-realbroker"})
	return out.String(), errb.String(), code
}

// live runs connectscope against the broker's PLAINTEXT listener.
func (c *cluster) live(args ...string) (stdout, stderr string, code int) {
	return run(append([]string{"-b", c.b.Bootstrap(), "--timeout", "20s"}, args...)...)
}
