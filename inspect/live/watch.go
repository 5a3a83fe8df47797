package live

import (
	"context"
	"math"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/connectscope/connectscope/inspect/watch"
)

// WatchOptions say what to watch and how often to look at the group.
type WatchOptions struct {
	Live     Options       // connection, group, topics
	Interval time.Duration // between DescribeGroups; 0 = 1s
}

// RunWatch follows the Connect group (DescribeGroups every interval) and the
// status topic (from its end when the watch starts; the topic is read once
// first to know each task's state) until ctx ends, calling emit for every
// event as it happens. It returns the summary when ctx ends. It gives up
// with a *LiveError when the cluster has not answered for the timeout: every
// request of a round shares the deadline "last answer + timeout", so a
// broker that accepts connections and never answers (a stopped process) is
// reported once the timeout has passed, not a timeout per request later.
// A summary whose cluster had stopped answering before the end says so
// (Unanswered, LastAnswerMs): its state at the end is the last one seen.
func RunWatch(ctx context.Context, opts WatchOptions, emit func(watch.Event) error) (watch.Summary, error) {
	opts.Live = opts.Live.withDefaults()
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	cw := &connWatch{}
	opts.Live.Conn.Bootstrap = answeringSeeds(ctx, opts.Live.Conn)
	cl, err := newWatchedClient(opts.Live.Conn, cw)
	if err != nil {
		return watch.Summary{}, &Error{What: "connecting", Err: err, Hint: setting.Textf("check %v and %v", setting.Connection, setting.WorkerConfig)}
	}
	defer cl.Close()
	r := &reader{cl: cl, adm: newAdm(cl), watch: cw, opts: opts.Live}

	layout, err := r.topicLayout(ctx)
	if err != nil {
		return watch.Summary{}, err
	}
	ranges, err := r.offsetRanges(ctx, layout)
	if err != nil {
		return watch.Summary{}, err
	}
	var statusRanges []partRange
	for _, pr := range ranges {
		if pr.topic == opts.Live.Topics.Status {
			statusRanges = append(statusRanges, pr)
		}
	}
	parts, err := r.fetchAll(ctx, layout, statusRanges)
	if err != nil {
		return watch.Summary{}, err
	}
	w := watch.New(time.Now().UnixMilli(), mergePartitions(parts.topic(opts.Live.Topics.Status)))

	tail := make([]*cursor, len(statusRanges))
	for i, pr := range statusRanges {
		pr.end = math.MaxInt64 // follow the topic from where the first read ended
		tail[i] = &cursor{partRange: pr, next: statusRanges[i].end, leader: layout.details[pr.topic].Partitions[pr.partition].Leader}
	}
	send := func(events []watch.Event) error {
		for _, e := range events {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	}
	timeout := opts.Live.Conn.timeout()
	lastOK := time.Now()
	var lastErr error
	// summary is the watch's summary now; when the cluster has not answered
	// for longer than a round or two, its state at the end is stale.
	staleAfter := opts.Interval + max(opts.Interval, time.Second)
	summary := func() watch.Summary {
		s := w.Summary(time.Now().UnixMilli())
		s.LastAnswerMs = lastOK.UnixMilli()
		s.Unanswered = time.Since(lastOK) > staleAfter
		return s
	}
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	for {
		ok := true
		rctx, cancel := context.WithDeadline(ctx, lastOK.Add(timeout))
		if g, err := r.describeOnce(rctx); err == nil {
			if err := send(w.ObserveGroup(time.Now().UnixMilli(), g)); err != nil {
				cancel()
				return summary(), err
			}
		} else {
			ok, lastErr = false, err
		}
		recs, err := r.tailOnce(rctx, layout, tail)
		cancel()
		if err != nil {
			ok, lastErr = false, err
		}
		for _, rec := range recs {
			if err := send(w.ObserveStatus(time.Now().UnixMilli(), rec)); err != nil {
				return summary(), err
			}
		}
		if ok {
			lastOK = time.Now()
		}
		if ctx.Err() != nil {
			return summary(), nil
		}
		if !ok && !time.Now().Before(lastOK.Add(timeout)) {
			return summary(), explain("watching group "+opts.Live.Group, lastErr, opts.Live.Conn, cw)
		}
		select {
		case <-ctx.Done():
			return summary(), nil
		case <-ticker.C:
		}
	}
}

// describeOnce describes the Connect group once, bounded by the timeout.
func (r *reader) describeOnce(ctx context.Context) (*inspect.GroupDescription, error) {
	dctx, cancel := context.WithTimeout(ctx, r.opts.Conn.timeout())
	defer cancel()
	return DescribeGroup(dctx, r.cl, r.opts.Group)
}

// tailOnce fetches what was appended to the followed partitions since the
// last call, merged by timestamp.
func (r *reader) tailOnce(ctx context.Context, l *topicLayout, cs []*cursor) ([]inspect.Record, error) {
	byLeader := map[int32][]*cursor{}
	for _, c := range cs {
		byLeader[c.leader] = append(byLeader[c.leader], c)
	}
	var firstErr error
	refresh := false
	for leader, group := range byLeader {
		res := r.fetchOnce(ctx, leader, group, readUncommittedLevel(), defaultDecompressor(), 0, fetchMaxPartitionBytes) // don't wait: the group is due
		if res.err != nil {
			firstErr, refresh = res.err, true
			continue
		}
		for _, perr := range res.partErrs {
			firstErr, refresh = perr, true
		}
	}
	if refresh {
		r.refreshLeaders(ctx, l, cs)
	}
	parts := make([][]inspect.Record, len(cs))
	for i, c := range cs {
		parts[i], c.recs = c.recs, nil
	}
	return mergePartitions(parts), firstErr
}
