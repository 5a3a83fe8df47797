// Package live reads a running cluster with franz-go: the connection (TLS,
// SASL), the internal topics, the Connect group and sink groups, live
// watch, and the one-line errors for what went wrong on the way.
package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Isolation levels, as Connect's readers use them (json-output.md).
const (
	ReadCommitted   = "read_committed"
	ReadUncommitted = "read_uncommitted"
)

// LiveOptions say what to read from a live cluster.
type Options struct {
	Conn   ConnOptions
	Group  string             // the Connect group; "" = connect-cluster
	Topics inspect.TopicNames // zero fields take Connect's defaults
	// Isolation is ReadCommitted or ReadUncommitted ("" = ReadUncommitted).
	// Use IsolationFor to derive it from the worker config as Connect does.
	Isolation string
	// GroupSettle is how long to keep describing the Connect group while it
	// is mid-rebalance, hoping to see it Stable; 0 = describe once.
	GroupSettle time.Duration
	// SkipSinkGroups leaves Dataset.SinkGroups empty (no group reads).
	SkipSinkGroups bool
	// Stream, when set, receives the records of StreamTopic as they are
	// read, instead of Dataset.Records holding them: one call at a time,
	// each partition's records in log order, partitions interleaved — so
	// only for readers that do not depend on order across partitions, like
	// the offsets topic's (each key lives in one partition). Records alias
	// the fetch buffers. If ReadLive then fails, discard what Stream built.
	Stream      func(inspect.Record)
	StreamTopic string
	// Read names the internal topics whose records to read (nil = all
	// three); a view that shows one topic reads only that one. Offsets and
	// descriptions are listed for all three either way. Sink groups are
	// found from the config topic, so they need it read.
	Read []string
}

// IsolationFor returns the isolation level Connect's own readers use for a
// worker whose exactly.once.source.support is eos ("enabled" means committed).
func IsolationFor(eos string) string {
	if strings.EqualFold(strings.TrimSpace(eos), "enabled") {
		return ReadCommitted
	}
	return ReadUncommitted
}

// ReadLive reads a Connect cluster's internal topics, its group and its sink
// connectors' groups from a live Kafka cluster. It is read-only: it uses no
// consumer group, commits nothing, produces nothing and creates nothing.
//
// The three topics are read from their start offsets to the end offsets
// listed when reading began (last stable offsets under read_committed), all
// partitions concurrently. Records are returned topic by topic (config,
// offsets, status); within a topic each partition keeps its log order and
// partitions follow one another in partition order — except the status
// topic's when it holds a connector tombstone, the one record whose effect
// crosses partitions (it drops task statuses kept under other keys): then
// its partitions are merged by record timestamp (ties by partition), the
// best available approximation of the order the workers wrote them in.
//
// Every network operation is bounded by opts.Conn.Timeout; a long read is
// abandoned when it makes no progress for that long. Any failure returns a
// *LiveError and no Dataset: a partial read is never returned.
func Read(ctx context.Context, opts Options) (*inspect.Dataset, error) {
	watch := &connWatch{}
	conn := opts.Conn // the dataset's source still names every server given
	conn.Bootstrap = answeringSeeds(ctx, opts.Conn)
	cl, err := newWatchedClient(conn, watch)
	if err != nil {
		return nil, &Error{What: "connecting", Err: err, Hint: setting.Textf("check %v and %v", setting.Connection, setting.WorkerConfig)}
	}
	defer cl.Close()
	return readLive(ctx, cl, watch, opts.withDefaults())
}

// selected keeps the ranges of the topics opts.Read names.
func (o Options) selected(ranges []partRange) []partRange {
	if o.Read == nil {
		return ranges
	}
	var out []partRange
	for _, pr := range ranges {
		for _, t := range o.Read {
			if pr.topic == t {
				out = append(out, pr)
				break
			}
		}
	}
	return out
}

func (o Options) withDefaults() Options {
	o.Topics = o.Topics.Or(inspect.DefaultTopicNames())
	if o.Group == "" {
		o.Group = "connect-cluster"
	}
	if o.Isolation == "" {
		o.Isolation = ReadUncommitted
	}
	return o
}

// reader carries one live read's client and settings.
type reader struct {
	cl       *kgo.Client
	adm      *kadm.Client
	watch    *connWatch
	opts     Options
	streamMu sync.Mutex // Stream is called one record at a time
}

// op runs fn, retrying retriable failures with backoff, all within the
// per-operation timeout, and explains the error that remains.
func (r *reader) op(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	octx, cancel := context.WithTimeout(ctx, r.opts.Conn.timeout())
	defer cancel()
	refused := r.stopWhenAllRefused(octx, cancel)
	var err, cause error // cause: the latest failure that was not our own deadline
	for tries := 1; ; tries++ {
		if err = fn(octx); err == nil {
			return nil
		}
		if ctx.Err() != nil { // the caller gave up, not the operation
			return explain(what, ctx.Err(), r.opts.Conn, r.watch)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			cause = err
		}
		if octx.Err() != nil || !retriable(err) || r.watch.saslError() != nil || !sleepCtx(octx, Backoff(tries)) {
			break
		}
	}
	if ctx.Err() != nil { // interrupted during a backoff: not the operation's own deadline
		return explain(what, ctx.Err(), r.opts.Conn, r.watch)
	}
	if refused.Load() {
		last, _ := r.watch.last()
		err = fmt.Errorf("every bootstrap server refused the connection (%s): %w", strings.Join(workerconfig.List(r.opts.Conn.Bootstrap...), ", "), last)
		return explain(what, err, r.opts.Conn, r.watch)
	}
	if cause != nil && (octx.Err() != nil || errors.Is(err, context.DeadlineExceeded)) {
		err = fmt.Errorf("gave up after %s: %w", r.opts.Conn.timeout(), cause)
	}
	return explain(what, err, r.opts.Conn, r.watch)
}

// refusedGrace is how long a refused bootstrap server gets before the read
// stops: a port nothing listens on is a mistake to report at once, while a
// broker that is just starting usually listens within this.
const refusedGrace = 2 * time.Second

// stopWhenAllRefused cancels an operation as soon as every bootstrap server
// has refused the connection for refusedGrace; the flag says it did.
func (r *reader) stopWhenAllRefused(ctx context.Context, cancel context.CancelFunc) *atomic.Bool {
	var stopped atomic.Bool
	distinct := map[string]bool{}
	for _, s := range workerconfig.List(r.opts.Conn.Bootstrap...) {
		distinct[s] = true
	}
	n := len(distinct)
	if r.watch == nil || n == 0 {
		return &stopped
	}
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if r.watch.allRefused(n, refusedGrace) {
					stopped.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return &stopped
}

func readLive(ctx context.Context, cl *kgo.Client, watch *connWatch, opts Options) (*inspect.Dataset, error) {
	if opts.Isolation != ReadCommitted && opts.Isolation != ReadUncommitted {
		return nil, fmt.Errorf("isolation %q: want %s or %s", opts.Isolation, ReadCommitted, ReadUncommitted)
	}
	r := &reader{cl: cl, adm: newAdm(cl), watch: watch, opts: opts}
	ds := &inspect.Dataset{
		Source:    "kafka:" + strings.Join(opts.Conn.Bootstrap, ","),
		TakenAtMs: time.Now().UnixMilli(),
		Topics:    opts.Topics,
		Isolation: opts.Isolation,
	}
	layout, err := r.topicLayout(ctx)
	if err != nil {
		return nil, err
	}
	ds.TopicDescriptions = layout.descriptions()
	if ds.TopicDescriptions, err = r.describeTopicConfigs(ctx, ds.TopicDescriptions); err != nil {
		return nil, err
	}
	ranges, err := r.offsetRanges(ctx, layout)
	if err != nil {
		return nil, err
	}
	ds.EndOffsets = make(map[string]map[int32]int64)
	for _, pr := range ranges {
		if ds.EndOffsets[pr.topic] == nil {
			ds.EndOffsets[pr.topic] = make(map[int32]int64)
		}
		ds.EndOffsets[pr.topic][pr.partition] = pr.end
	}
	perPartition, err := r.fetchAll(ctx, layout, opts.selected(ranges))
	if err != nil {
		return nil, err
	}
	ds.Records = joinTopics(perPartition, opts.Topics)
	if ds.BrokerConfigs, err = r.brokerConfigs(ctx, layout); err != nil {
		return nil, err
	}
	if ds.Group, err = r.describeConnectGroup(ctx); err != nil {
		return nil, err
	}
	if !opts.SkipSinkGroups && opts.reads(opts.Topics.Config) {
		if ds.SinkGroups, err = r.sinkGroups(ctx, ds.Records); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, explain("reading the cluster", err, opts.Conn, watch)
	}
	return ds, nil
}

func newAdm(cl *kgo.Client) *kadm.Client { return kadm.NewClient(cl) }

func (o Options) reads(topic string) bool {
	if o.Read == nil {
		return true
	}
	for _, t := range o.Read {
		if t == topic {
			return true
		}
	}
	return false
}
