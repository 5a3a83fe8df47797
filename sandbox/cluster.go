package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Cluster is an embedded single-broker Kafka with simulated Connect workers.
// All methods are safe for concurrent use.
type Cluster struct {
	cfg   Config
	kf    *kfake.Cluster
	addr  string
	admin *kgo.Client // creates topics and writes config records for the leader
	log   *lineLog

	// opMu serialises the operations that write the config topic, so the
	// records of one operation stay together as Connect's leader writes them.
	opMu sync.Mutex

	mu          sync.Mutex
	connectors  map[string]*connectorState
	configPos   int64 // position after the last config record; -1 = none
	sessionKey  bool  // a session key has been written
	topicStatus map[string]bool
	sourcePos   map[taskID]int64
	workers     map[string]*worker // running workers by name
	protocols   map[string]string  // connect.protocol of every worker ever added
	nextWorker  int
	closed      bool
	memberSeqs  map[string]int    // member id -> join order
	memberNames map[string]string // member id -> worker name
	seq         int
	rounds      []RoundRecord
	gate        syncGate // who has its assignment in recent generations (syncgate.go)
	// slowSync delays a worker's SyncGroup by this long: tests stand in
	// with it for a member slowed by a loaded machine.
	slowSync map[string]time.Duration
}

// Start starts the broker, creates Connect's internal topics and returns a
// cluster with no workers and no connectors.
func Start(ctx context.Context, cfg Config) (*Cluster, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	listen := cfg.Listen
	kf, err := kfake.NewCluster(
		kfake.NumBrokers(1),
		kfake.ClusterID("connectscope-sandbox"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, listen) }),
		kfake.GroupMinSessionTimeout(10*time.Millisecond),
		kfake.DefaultNumPartitions(1),
	)
	if err != nil {
		return nil, fmt.Errorf("starting the embedded broker on %s: %w", listen, err)
	}
	c := &Cluster{
		cfg:         cfg,
		kf:          kf,
		addr:        kf.ListenAddrs()[0],
		log:         &lineLog{w: cfg.Log},
		connectors:  map[string]*connectorState{},
		configPos:   -1,
		topicStatus: map[string]bool{},
		sourcePos:   map[taskID]int64{},
		workers:     map[string]*worker{},
		protocols:   map[string]string{},
		memberSeqs:  map[string]int{},
		memberNames: map[string]string{},
	}
	c.admin, err = kgo.NewClient(
		kgo.SeedBrokers(c.addr),
		kgo.ClientID("connect-cluster-leader"),
		kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)),
	)
	if err != nil {
		kf.Close()
		return nil, fmt.Errorf("creating the admin client: %w", err)
	}
	if err := c.createInternalTopics(ctx); err != nil {
		c.admin.Close()
		kf.Close()
		return nil, err
	}
	return c, nil
}

// createInternalTopics creates the three topics as a distributed worker
// does at startup: config 1 partition, offsets 25, status 5, all compacted.
func (c *Cluster) createInternalTopics(ctx context.Context) error {
	adm := kadm.NewClient(c.admin)
	compact := map[string]*string{"cleanup.policy": kadm.StringPtr("compact")}
	for _, t := range []struct {
		name       string
		partitions int32
	}{{c.cfg.Topics.Config, 1}, {c.cfg.Topics.Offset, 25}, {c.cfg.Topics.Status, 5}} {
		if err := c.createTopic(ctx, adm, t.name, t.partitions, compact); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cluster) createTopic(ctx context.Context, adm *kadm.Client, name string, partitions int32, configs map[string]*string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := adm.CreateTopic(ctx, partitions, 1, configs, name)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("creating topic %s: %w", name, err)
	}
	return nil
}

// Bootstrap is the broker's address, for clients (connectscope -b ADDR).
func (c *Cluster) Bootstrap() string { return c.addr }

// GroupID is the Connect group's id.
func (c *Cluster) GroupID() string { return c.cfg.GroupID }

// Config is the effective configuration (defaults filled in).
func (c *Cluster) Config() Config { return c.cfg }

// Close kills every worker (no LeaveGroup, no final statuses) and stops the
// broker. Use StopAll first for a clean shutdown.
func (c *Cluster) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	ws := make([]*worker, 0, len(c.workers))
	for _, w := range c.workers {
		ws = append(ws, w)
	}
	c.workers = map[string]*worker{}
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() { defer wg.Done(); w.kill() }()
	}
	wg.Wait()
	c.admin.Close()
	c.kf.Close()
}

// StopAll stops every worker cleanly, in parallel.
func (c *Cluster) StopAll(ctx context.Context) error {
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, name := range c.Workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.StopWorker(ctx, name); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Workers lists the running workers' names, sorted.
func (c *Cluster) Workers() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.workerNamesLocked()
}

// AddWorker starts a worker. An empty name picks the next free
// "worker-N"; an empty protocol uses Config.Protocol. It returns the name.
func (c *Cluster) AddWorker(ctx context.Context, name, protocol string) (string, error) {
	if protocol == "" {
		protocol = c.cfg.Protocol
	}
	p, err := ParseProtocol(protocol)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", errors.New("sandbox is closed")
	}
	if name == "" {
		for {
			c.nextWorker++
			name = fmt.Sprintf("worker-%d", c.nextWorker)
			if _, used := c.protocols[name]; !used {
				break
			}
		}
	}
	if _, running := c.workers[name]; running {
		c.mu.Unlock()
		return "", fmt.Errorf("worker %s is already running", name)
	}
	w, err := newWorker(c, name, p)
	if err != nil {
		c.mu.Unlock()
		return "", err
	}
	c.workers[name] = w
	c.protocols[name] = p
	c.mu.Unlock()
	go w.run()
	c.log.printf("worker %s started (connect.protocol=%s, id %s)", name, p, w.id)
	return name, nil
}

func (c *Cluster) takeWorker(name string) (*worker, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.workers[name]
	if !ok {
		return nil, fmt.Errorf("no running worker %q (running: %v)", name, c.workerNamesLocked())
	}
	delete(c.workers, name)
	return w, nil
}

func (c *Cluster) workerNamesLocked() []string {
	return slices.Sorted(maps.Keys(c.workers))
}

// StopWorker shuts a worker down cleanly: it stops its connectors and tasks
// (writing UNASSIGNED statuses), then sends LeaveGroup.
func (c *Cluster) StopWorker(ctx context.Context, name string) error {
	w, err := c.takeWorker(name)
	if err != nil {
		return err
	}
	if err := w.stop(ctx); err != nil {
		return fmt.Errorf("stopping worker %s: %w", name, err)
	}
	c.log.printf("worker %s stopped (LeaveGroup sent)", name)
	return nil
}

// KillWorker crashes a worker: its connections close, nothing more is sent;
// the broker notices after the session timeout.
func (c *Cluster) KillWorker(name string) error {
	w, err := c.takeWorker(name)
	if err != nil {
		return err
	}
	w.kill()
	c.log.printf("worker %s killed (the broker expires it after %v)", name, c.cfg.SessionTimeout)
	return nil
}

// RestartWorker stops a worker cleanly and starts it again under the same
// name and protocol; it rejoins with a new member id and holds nothing.
func (c *Cluster) RestartWorker(ctx context.Context, name string) error {
	c.mu.Lock()
	p := c.protocols[name]
	c.mu.Unlock()
	if err := c.StopWorker(ctx, name); err != nil {
		return err
	}
	_, err := c.AddWorker(ctx, name, p)
	return err
}

// liveWorkers returns the running workers.
func (c *Cluster) liveWorkers() []*worker {
	c.mu.Lock()
	defer c.mu.Unlock()
	ws := make([]*worker, 0, len(c.workers))
	for _, w := range c.workers {
		ws = append(ws, w)
	}
	return ws
}

// notifyAll sends m to every running worker.
func (c *Cluster) notifyAll(m workerMsg) {
	for _, w := range c.liveWorkers() {
		w.send(m)
	}
}

// lineLog serialises log lines from many goroutines.
type lineLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineLog) printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// WorkerStates describes the running workers, sorted by name.
func (c *Cluster) WorkerStates() []WorkerState {
	ws := c.liveWorkers()
	out := make([]WorkerState, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.snapshot())
	}
	slices.SortFunc(out, func(a, b WorkerState) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
