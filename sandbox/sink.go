package sandbox

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// sinkTask is a sink task's consumer: a real member of the consumer group
// connect-NAME, consuming the connector's topic and committing what it
// "wrote", which is only part of each partition, so the group shows lag.
type sinkTask struct {
	cl     *kgo.Client
	dialer *crashableDialer
	cancel context.CancelFunc
	done   chan struct{}
	active atomic.Bool // RUNNING (commits) versus PAUSED (holds its partitions)
}

// crashableDialer lets a sink consumer die like a crashed JVM: its
// connections drop and nothing more reaches the broker (no LeaveGroup), so
// the broker expires it after the session timeout.
type crashableDialer struct {
	mu    sync.Mutex
	dead  bool
	conns []net.Conn
}

func (d *crashableDialer) dial(ctx context.Context, network, host string) (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		return nil, errors.New("the worker crashed")
	}
	var nd net.Dialer
	conn, err := nd.DialContext(ctx, network, host)
	if err == nil {
		d.conns = append(d.conns, conn)
	}
	return conn, err
}

func (d *crashableDialer) crash() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dead = true
	for _, c := range d.conns {
		c.Close()
	}
}

// SinkGroup is the consumer group a sink connector uses by default.
func SinkGroup(connector string) string { return "connect-" + connector }

// startSinkTask starts the consumer of task n of a sink connector.
func (c *Cluster) startSinkTask(connector string, n int, topic string, active bool) *sinkTask {
	limit := int64(c.cfg.SinkRecordsPerPartition * 6 / 10)
	dialer := &crashableDialer{}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(c.addr),
		kgo.Dialer(dialer.dial),
		kgo.ClientID("connector-consumer-"+connector+"-"+strconv.Itoa(n)),
		kgo.ConsumerGroup(SinkGroup(connector)),
		kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(),
		kgo.Balancers(kgo.RangeBalancer()), // Connect's consumers prefer range
		kgo.SessionTimeout(c.cfg.SessionTimeout),
		kgo.HeartbeatInterval(c.cfg.HeartbeatInterval),
		kgo.RebalanceTimeout(c.cfg.RebalanceTimeout),
		kgo.FetchMaxWait(200*time.Millisecond),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
	)
	if err != nil {
		c.log.printf("sink task %s-%d: creating consumer: %v", connector, n, err)
		return &sinkTask{cancel: func() {}, done: closedChan()}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &sinkTask{cl: cl, dialer: dialer, cancel: cancel, done: make(chan struct{})}
	s.active.Store(active)
	go s.run(ctx, limit)
	return s
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

func (s *sinkTask) setActive(on bool) { s.active.Store(on) }

func (s *sinkTask) run(ctx context.Context, limit int64) {
	defer close(s.done)
	for ctx.Err() == nil {
		fetches := s.cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return
		}
		if !s.active.Load() {
			continue
		}
		var done []*kgo.Record
		fetches.EachRecord(func(r *kgo.Record) {
			if r.Offset < limit {
				done = append(done, r)
			}
		})
		if len(done) > 0 {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_ = s.cl.CommitRecords(cctx, done...) // a failed commit is retried with the next records
			cancel()
		}
	}
}

// stop closes the consumer, which leaves the group.
func (s *sinkTask) stop() {
	s.cancel()
	<-s.done
	if s.cl == nil {
		return
	}
	s.closeClient()
}

// crash drops the consumer's connections and closes it without leaving the
// group.
func (s *sinkTask) crash() {
	s.cancel()
	<-s.done
	if s.cl == nil {
		return
	}
	s.dialer.crash()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	_ = s.cl.LeaveGroupContext(gone) // returns at once; the leave can no longer reach the broker
	s.closeClient()
}

func (s *sinkTask) closeClient() {
	closed := make(chan struct{})
	go func() { s.cl.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
	}
}
