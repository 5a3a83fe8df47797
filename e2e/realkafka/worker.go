//go:build e2e

package realkafka

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// WorkerOptions configure a Connect worker (ConnectDistributed).
type WorkerOptions struct {
	Version string // a pinned version; default the broker's
	// Group is group.id and, unless Props name them, the prefix of the
	// internal topics GROUP-configs, GROUP-offsets, GROUP-status; default
	// connect-cluster with Connect's default topic names.
	Group string
	Props map[string]string // worker properties, added to or replacing the defaults
	// Loggers sets logger levels, e.g. {"org.apache.kafka.connect": "DEBUG"}.
	Loggers map[string]string
	HeapMB  int    // default 256
	Name    string // names the log file; default worker-N
}

// Worker is one Connect worker JVM with its REST listener on loopback.
type Worker struct {
	broker *Broker
	jars   Jars
	name   string
	group  string
	port   int
	props  map[string]string
	args   []string
	proc   *jvm
}

// StartWorker starts a worker on this broker and waits until it has joined
// its group; it is killed when the test ends, and on failure the test prints
// the tails of its and the broker's logs.
func (b *Broker) StartWorker(t testing.TB, opts WorkerOptions) *Worker {
	t.Helper()
	return b.StartWorkers(t, 1, opts)[0]
}

// StartWorkers starts n workers with the same options at once and waits for
// all of them (faster than one by one).
func (b *Broker) StartWorkers(t testing.TB, n int, opts WorkerOptions) []*Worker {
	t.Helper()
	b.Watch(t)
	ws := make([]*Worker, 0, n)
	for i := 0; i < n; i++ {
		w, err := b.NewWorker(opts)
		if err != nil {
			t.Fatal(err)
		}
		w.Watch(t)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, w := range ws {
		if err := w.WaitReady(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// NewWorker prepares a worker (config, port, log) without starting it.
func (b *Broker) NewWorker(opts WorkerOptions) (*Worker, error) {
	if opts.Version == "" {
		opts.Version = b.jars.Version
	}
	if opts.HeapMB == 0 {
		opts.HeapMB = 256
	}
	seq := b.nextWorker()
	if opts.Name == "" {
		opts.Name = fmt.Sprintf("worker-%d", seq)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	jars, err := Resolve(ctx, opts.Version)
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(1)
	if err != nil {
		return nil, err
	}
	w := &Worker{broker: b, jars: jars, name: opts.Name, port: ports[0]}
	w.group = opts.Group
	if w.group == "" {
		w.group = "connect-cluster"
	}
	w.props = map[string]string{
		"bootstrap.servers":                 b.Bootstrap(),
		"group.id":                          w.group,
		"config.storage.topic":              "connect-configs",
		"offset.storage.topic":              "connect-offsets",
		"status.storage.topic":              "connect-status",
		"config.storage.replication.factor": "1",
		"offset.storage.replication.factor": "1",
		"status.storage.replication.factor": "1",
		"key.converter":                     "org.apache.kafka.connect.json.JsonConverter",
		"value.converter":                   "org.apache.kafka.connect.json.JsonConverter",
		"key.converter.schemas.enable":      "false",
		"value.converter.schemas.enable":    "false",
		"listeners":                         fmt.Sprintf("http://127.0.0.1:%d", w.port),
		"rest.advertised.host.name":         "127.0.0.1",
		"rest.advertised.port":              fmt.Sprint(w.port),
		"rest.advertised.listener":          "http",
		"plugin.path":                       jars.PluginPath,
		"offset.flush.interval.ms":          "1000",
		"task.shutdown.graceful.timeout.ms": "2000",
		"producer.linger.ms":                "0",
	}
	if opts.Group != "" {
		w.props["config.storage.topic"] = opts.Group + "-configs"
		w.props["offset.storage.topic"] = opts.Group + "-offsets"
		w.props["status.storage.topic"] = opts.Group + "-status"
	}
	for k, v := range opts.Props {
		w.props[k] = v
	}
	if g := w.props["group.id"]; g != "" {
		w.group = g
	}
	dir := filepath.Join(b.dir, w.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	cfg := filepath.Join(dir, "worker.properties")
	if err := WriteProperties(cfg, w.props); err != nil {
		return nil, err
	}
	logFlags, err := logConfig(dir, opts.Loggers)
	if err != nil {
		return nil, err
	}
	w.args = append(append(jvmFlags(opts.HeapMB), logFlags...), "-cp", jars.Classpath(),
		"org.apache.kafka.connect.cli.ConnectDistributed", cfg)
	w.proc = &jvm{name: fmt.Sprintf("%s (Connect %s, %s)", w.name, opts.Version, w.URL()), logPath: filepath.Join(dir, "worker.log")}
	b.mu.Lock()
	b.workers = append(b.workers, w)
	b.mu.Unlock()
	return w, nil
}

// Name is the worker's name in logs and messages.
func (w *Worker) Name() string { return w.name }

// Version is the worker's Kafka version.
func (w *Worker) Version() string { return w.jars.Version }

// URL is the REST URL as Connect advertises it: http://127.0.0.1:PORT/.
func (w *Worker) URL() string { return fmt.Sprintf("http://127.0.0.1:%d/", w.port) }

// ID is the worker id Connect reports in statuses: 127.0.0.1:PORT.
func (w *Worker) ID() string { return fmt.Sprintf("127.0.0.1:%d", w.port) }

// Group is the worker's group.id.
func (w *Worker) Group() string { return w.group }

// Props are the worker's properties as written.
func (w *Worker) Props() map[string]string {
	out := make(map[string]string, len(w.props))
	for k, v := range w.props {
		out[k] = v
	}
	return out
}

// SetProps changes worker properties for the next Start (a stopped
// worker restarted with a new setting, as an operator rolls a change).
func (w *Worker) SetProps(props map[string]string) error {
	for k, v := range props {
		w.props[k] = v
	}
	return WriteProperties(filepath.Join(w.broker.dir, w.name, "worker.properties"), w.props)
}

// Running reports whether the JVM is up.
func (w *Worker) Running() bool { return w.proc.running() }

// Start launches the JVM without waiting for it to be ready.
func (w *Worker) Start() error { return w.proc.start(w.args) }

// Stop stops the worker cleanly (SIGTERM: Connect stops its work and leaves
// the group) and waits for the JVM to end.
func (w *Worker) Stop() error {
	restClient.CloseIdleConnections()
	return w.proc.signal(syscall.SIGTERM, stopGrace)
}

// stopGrace is how long a clean stop may take. Connect stops its REST
// server before its herder, and Jetty waits for every request in flight: a
// request that waits on the herder (GET /health, which the restart
// measurement polls, or a connector call) holds the stop while the herder
// sits in a rebalance (up to rebalance.timeout.ms, 60 s by default) and the
// request up to Connect's REST request timeout (90 s). A thread dump of a
// CI stop that overran 90 s showed exactly that: the shutdown hook in
// RestServer.stop joining Jetty's pool while the group was rebalancing.
const stopGrace = 150 * time.Second

// Kill ends the JVM at once (SIGKILL): the group notices only after
// session.timeout.ms.
func (w *Worker) Kill() error { return w.proc.signal(syscall.SIGKILL, 10*time.Second) }

// Pause freezes the JVM (SIGSTOP): its REST listener accepts connections
// but nothing answers, as a worker stuck in a long GC pause; the group drops
// it after session.timeout.ms. Resume continues it.
func (w *Worker) Pause() error { return w.proc.send(syscall.SIGSTOP) }

// Resume continues a paused JVM (SIGCONT).
func (w *Worker) Resume() error { return w.proc.send(syscall.SIGCONT) }

// Restart stops the worker cleanly if it runs, starts it again with the same
// properties and REST port (so the same worker id) and waits until ready.
func (w *Worker) Restart(ctx context.Context) error {
	if err := w.Stop(); err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	return w.WaitReady(ctx)
}

// LogPath is the worker's log file (kept after the test with REALKAFKA_KEEP).
func (w *Worker) LogPath() string { return w.proc.logPath }

// LogTail is the last n lines of the worker's log.
func (w *Worker) LogTail(n int) string { return w.proc.logTail(n) }

// Watch makes t print the tail of this worker's log if it fails.
func (w *Worker) Watch(t testing.TB) {
	w.broker.Watch(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("--- %s log (tail) %s ---\n%s", w.proc.name, w.proc.logPath, w.LogTail(60))
		}
		_ = w.Kill()
	})
}

func (w *Worker) alive() error {
	if !w.proc.running() {
		return fmt.Errorf("%s is not running: %v", w.proc.name, w.proc.exitErr())
	}
	return nil
}

// WaitReady waits until the REST API answers GET / and GET /connectors and
// the group's stable generation includes this worker.
func (w *Worker) WaitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	err := poll(ctx, w.proc.name+" to answer REST", 250*time.Millisecond, w.alive, func(ctx context.Context) error {
		var root struct {
			Version string `json:"version"`
		}
		if err := w.REST(ctx, http.MethodGet, "/", nil, &root); err != nil {
			return err
		}
		if root.Version == "" {
			return errors.New("GET / gave no version")
		}
		return nil
	})
	if err == nil {
		err = poll(ctx, w.proc.name+" to join group "+w.group, 250*time.Millisecond, w.alive, w.joined)
	}
	if err == nil {
		err = poll(ctx, w.proc.name+" to list connectors", 250*time.Millisecond, w.alive, func(ctx context.Context) error {
			return w.REST(ctx, http.MethodGet, "/connectors", nil, nil)
		})
	}
	if err != nil && errors.Is(err, context.DeadlineExceeded) && w.proc.running() {
		err = fmt.Errorf("%w (%w)", err, ErrOverran)
	}
	if err != nil {
		return fmt.Errorf("%w\n--- %s log (tail) ---\n%s", err, w.name, w.LogTail(40))
	}
	return nil
}

// joined reports nil once the group is Stable with a member advertising
// this worker's URL.
func (w *Worker) joined(ctx context.Context) error {
	members, state, err := w.broker.GroupMembers(ctx, w.group)
	if err != nil {
		return err
	}
	if state != "Stable" {
		return fmt.Errorf("group %s is %s", w.group, state)
	}
	for _, m := range members {
		if m.URL == w.URL() {
			return nil
		}
	}
	return fmt.Errorf("group %s has no member with URL %s", w.group, w.URL())
}

// GroupMember is one member of a Connect group as the broker describes it.
type GroupMember struct {
	MemberID string
	ClientID string
	URL      string // from the member's Connect metadata
}

// GroupMembers describes a Connect group: its members (with the REST URL
// read from their metadata) and state.
func (b *Broker) GroupMembers(ctx context.Context, group string) ([]GroupMember, string, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Bootstrap()), kgo.DialTimeout(2*time.Second))
	if err != nil {
		return nil, "", err
	}
	defer cl.Close()
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(rctx, cl)
	if err != nil {
		return nil, "", fmt.Errorf("describing group %s: %w", group, err)
	}
	if len(resp.Groups) != 1 {
		return nil, "", fmt.Errorf("describing group %s: %d groups in the answer", group, len(resp.Groups))
	}
	g := resp.Groups[0]
	if g.ErrorCode != 0 {
		return nil, "", fmt.Errorf("describing group %s: error code %d", group, g.ErrorCode)
	}
	var out []GroupMember
	for _, m := range g.Members {
		out = append(out, GroupMember{MemberID: m.MemberID, ClientID: m.ClientID, URL: metadataURL(m.ProtocolMetadata)})
	}
	return out, g.State, nil
}

// metadataURL reads the url field that leads every version of Connect's
// member metadata (int16 version, then a string).
func metadataURL(b []byte) string {
	if len(b) < 4 {
		return ""
	}
	n := int(int16(binary.BigEndian.Uint16(b[2:4])))
	if n < 0 || len(b) < 4+n {
		return ""
	}
	return string(b[4 : 4+n])
}

// RESTError is a non-2xx answer of the REST API.
type RESTError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *RESTError) Error() string {
	return fmt.Sprintf("REST %s %s: %d %s", e.Method, e.Path, e.Status, strings.TrimSpace(e.Body))
}

var restClient = &http.Client{Timeout: 30 * time.Second}

// REST calls the worker's REST API: body (if not nil) is sent as JSON, a
// 2xx answer is decoded into out (if not nil); other answers are a
// *RESTError.
func (w *Worker) REST(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("REST %s %s: encoding the body: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(w.URL(), "/")+path, rd)
	if err != nil {
		return fmt.Errorf("REST %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := restClient.Do(req)
	if err != nil {
		return fmt.Errorf("REST %s %s on %s: %w", method, path, w.name, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("REST %s %s on %s: reading the answer: %w", method, path, w.name, err)
	}
	if resp.StatusCode/100 != 2 {
		return &RESTError{Method: method, Path: path, Status: resp.StatusCode, Body: string(data)}
	}
	if out != nil && len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("REST %s %s on %s: decoding %q: %w", method, path, w.name, tail(string(data), 5), err)
		}
	}
	return nil
}

// RESTRetry is REST retried while Connect answers 409 (rebalance in
// progress) or 503, or the worker is not reachable, until ctx ends.
func (w *Worker) RESTRetry(ctx context.Context, method, path string, body, out any) error {
	var last error
	for {
		err := w.REST(ctx, method, path, body, out)
		if err == nil {
			return nil
		}
		var re *RESTError
		if errors.As(err, &re) && re.Status != http.StatusConflict && re.Status != http.StatusServiceUnavailable {
			return err
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (gave up: %v)", last, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// WaitPaused waits until every thread of the paused JVM is stopped
// (/proc/PID/task/*/stat state T): SIGSTOP is delivered to each thread
// apart, so a thread busy on another core may still answer for a moment.
func (w *Worker) WaitPaused(ctx context.Context) error {
	pid := w.proc.pid()
	if pid == 0 {
		return fmt.Errorf("%s is not running", w.proc.name)
	}
	for {
		running, err := threadsNotStopped(pid)
		if err != nil {
			return fmt.Errorf("reading the threads of %s (pid %d): %w", w.proc.name, pid, err)
		}
		if running == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s (pid %d): %d thread(s) not stopped: %w", w.proc.name, pid, running, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// threadsNotStopped counts the threads of pid whose state is not T/t.
func threadsNotStopped(pid int) (int, error) {
	dirs, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range dirs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, d.Name()))
		if err != nil {
			continue // the thread ended
		}
		// "tid (comm) S ...": the state follows the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || i+2 >= len(s) {
			continue
		}
		if st := s[i+2]; st != 'T' && st != 't' {
			n++
		}
	}
	return n, nil
}
