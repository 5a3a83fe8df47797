package live

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// partRange is one partition to read: [start, end).
type partRange struct {
	topic     string
	id        [16]byte
	partition int32
	start     int64
	end       int64
}

// offsetRanges lists each partition's log start and, as of now, its end: the
// high watermark, or under read_committed the last stable offset, which is
// where Connect's own readers stop.
func (r *reader) offsetRanges(ctx context.Context, l *topicLayout) ([]partRange, error) {
	if len(l.present()) == 0 {
		return nil, nil // listing no topics would list every topic
	}
	var starts, ends kadm.ListedOffsets
	err := r.op(ctx, "listing offsets of the internal topics", func(ctx context.Context) error {
		var err error
		if starts, err = r.adm.ListStartOffsets(ctx, l.present()...); err != nil {
			return err
		}
		if r.opts.Isolation == ReadCommitted {
			ends, err = r.adm.ListCommittedOffsets(ctx, l.present()...)
		} else {
			ends, err = r.adm.ListEndOffsets(ctx, l.present()...)
		}
		if err != nil {
			return err
		}
		if err := starts.Error(); err != nil {
			return err
		}
		return ends.Error()
	})
	if err != nil {
		return nil, err
	}
	var out []partRange
	for _, topic := range l.present() {
		d := l.details[topic]
		for p := range d.Partitions {
			s, ok1 := starts.Lookup(topic, p)
			e, ok2 := ends.Lookup(topic, p)
			if !ok1 || !ok2 {
				return nil, &Error{What: fmt.Sprintf("listing offsets of %s partition %d", topic, p),
					Err: errors.New("the broker did not list this partition"), Hint: setting.Textf("try again; the partition may be moving")}
			}
			out = append(out, partRange{topic: topic, id: d.ID, partition: p, start: s.Offset, end: e.Offset})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].topic != out[j].topic {
			return out[i].topic < out[j].topic
		}
		return out[i].partition < out[j].partition
	})
	return out, nil
}

// cursor is the read position in one partition.
type cursor struct {
	partRange
	next    int64
	leader  int32
	recs    []inspect.Record
	reserve int  // records reserved for this partition in the shared array
	stream  bool // records go to LiveOptions.Stream, not into recs for good
	// sink, for a streamed partition, takes each decoded batch's records.
	sink func([]inspect.Record)
}

// Fetch sizes: big enough that a million-record topic takes few round trips.
const (
	fetchMaxBytes          = 64 << 20
	fetchMaxPartitionBytes = 16 << 20
	probeMaxPartitionBytes = 1 << 20
	fetchMaxWaitMs         = 200
)

// fetchAll reads every range to its end with plain Fetch requests sent to
// each partition's leader, all leaders at once. Plain fetches (rather than a
// kgo consumer) tell us the exact next offset after each response, past
// aborted batches and transaction markers, so "read up to the end offset" is
// exact under read_committed too. Nothing is committed: there is no group.
//
// All partitions' records go into one array allocated up front (each
// partition gets a segment as long as its offset range), so assembling
// Dataset.Records afterwards needs no second copy of them.
func (r *reader) fetchAll(ctx context.Context, l *topicLayout, ranges []partRange) (*fetched, error) {
	cursors := make([]*cursor, len(ranges))
	for i, pr := range ranges {
		cursors[i] = &cursor{partRange: pr, next: pr.start, leader: l.details[pr.topic].Partitions[pr.partition].Leader,
			stream: r.opts.Stream != nil && pr.topic == r.opts.StreamTopic}
		if cursors[i].stream {
			cursors[i].sink = r.toStream
		}
	}
	role := map[string]int{}
	for i, t := range l.order {
		if _, ok := role[t]; !ok {
			role[t] = i
		}
	}
	sort.SliceStable(cursors, func(i, j int) bool {
		if a, b := role[cursors[i].topic], role[cursors[j].topic]; a != b {
			return a < b
		}
		return cursors[i].partition < cursors[j].partition
	})
	iso := readUncommittedLevel()
	if r.opts.Isolation == ReadCommitted {
		iso = kgo.ReadCommitted()
	}
	dec := defaultDecompressor()
	// First one answer per partition, to learn how densely records fill
	// its offsets (a compacted topic's range can be mostly holes); then one
	// array sized by that estimate holds every partition's records, each
	// in a segment, so Dataset.Records is assembled without a second copy.
	if err := r.readAll(ctx, l, cursors, iso, dec, true); err != nil {
		return nil, err
	}
	total := 0
	for _, c := range cursors {
		if !c.stream {
			c.reserve = estimateRecords(c)
		}
		total += c.reserve
	}
	backing := make([]inspect.Record, total)
	at := 0
	for _, c := range cursors {
		seg := backing[at : at : at+c.reserve] // appends beyond the reserve move to an array of their own
		c.recs = append(seg, c.recs...)
		at += c.reserve
	}
	if err := r.readAll(ctx, l, cursors, iso, dec, false); err != nil {
		return nil, err
	}
	return &fetched{backing: backing, parts: cursors}, nil
}

// estimateRecords guesses how many records a partition holds in all from
// what its first answer held per offset, with 5% to spare.
func estimateRecords(c *cursor) int {
	got := int64(len(c.recs))
	done, left := c.next-c.start, c.end-c.next
	if done <= 0 || left <= 0 {
		return int(got)
	}
	est := got + (got*left*105)/(done*100) + 16
	return int(min(est, got+left))
}

// readAll reads every cursor concurrently, each partition in its own loop
// (one partition's answer is decoded while the broker serves the next);
// firstOnly stops each after its first answer that advanced it. The first
// failure cancels the rest: there is no partial result.
func (r *reader) readAll(ctx context.Context, l *topicLayout, cursors []*cursor, iso kgo.IsolationLevel, dec kgo.Decompressor, firstOnly bool) error {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(cursors))
	for _, c := range cursors {
		go func() {
			err := r.readPartition(rctx, l, c, iso, dec, firstOnly)
			if err != nil {
				cancel()
			}
			errs <- err
		}()
	}
	var first error
	for range cursors {
		if err := <-errs; err != nil && (first == nil || isCanceledLiveError(first)) {
			first = err
		}
	}
	if ctx.Err() != nil {
		return explain("reading the internal topics", ctx.Err(), r.opts.Conn, r.watch)
	}
	return first
}

// fetched is what fetchAll read: partitions in (topic role, partition)
// order, their records in segments of one backing array.
type fetched struct {
	backing []inspect.Record
	parts   []*cursor
}

// topic returns one topic's partitions' records, in partition order.
func (f *fetched) topic(name string) [][]inspect.Record {
	var out [][]inspect.Record
	for _, c := range f.parts {
		if c.topic == name {
			out = append(out, c.recs)
		}
	}
	return out
}

// readPartition reads one partition to its end offset. Leader moves and
// lost connections are retried with backoff; it gives up when the partition
// makes no progress for the timeout.
func (r *reader) readPartition(ctx context.Context, l *topicLayout, c *cursor, iso kgo.IsolationLevel, dec kgo.Decompressor, firstOnly bool) error {
	timeout := r.opts.Conn.timeout()
	lastProgress := time.Now()
	var lastErr error
	for tries := 1; c.next < c.end; tries++ {
		if err := ctx.Err(); err != nil {
			return explain("reading the internal topics", err, r.opts.Conn, r.watch)
		}
		what := fmt.Sprintf("reading %s partition %d at offset %d", c.topic, c.partition, c.next)
		maxBytes := int32(fetchMaxPartitionBytes)
		if firstOnly {
			maxBytes = probeMaxPartitionBytes // a sample is enough to size the records array
		}
		res := r.fetchOnce(ctx, c.leader, []*cursor{c}, iso, dec, fetchMaxWaitMs, maxBytes)
		refresh := false
		switch perr := res.partErrs[c]; {
		case res.err != nil && fatalFetchError(res.err):
			return explain(fmt.Sprintf("%s from broker %d", what, c.leader), res.err, r.opts.Conn, r.watch)
		case res.err != nil:
			lastErr, refresh = res.err, true
		case perr == nil:
		case errors.Is(perr, kerr.OffsetOutOfRange):
			if err := r.restartBelowLogStart(ctx, c); err != nil {
				return err
			}
			continue
		case kerr.IsRetriable(perr) || errors.Is(perr, kerr.UnknownTopicOrPartition) || errors.Is(perr, kerr.UnknownTopicID):
			lastErr, refresh = perr, true
		default:
			return explain(what, perr, r.opts.Conn, r.watch)
		}
		if res.progress {
			r.flushStream(c)
			if firstOnly {
				return nil
			}
			lastProgress, tries = time.Now(), 0
			continue
		}
		if refresh {
			r.refreshLeaders(ctx, l, []*cursor{c})
		}
		if time.Since(lastProgress) > timeout {
			if lastErr == nil {
				lastErr = errors.New("the broker returned no records below the end offset")
			}
			return explain(fmt.Sprintf("%s (no progress for %s)", what, timeout), lastErr, r.opts.Conn, r.watch)
		}
		if !sleepCtx(ctx, Backoff(tries)) {
			return explain("reading the internal topics", ctx.Err(), r.opts.Conn, r.watch)
		}
	}
	return nil
}

// toStream hands records to LiveOptions.Stream, one caller at a time.
func (r *reader) toStream(recs []inspect.Record) {
	r.streamMu.Lock()
	defer r.streamMu.Unlock()
	for _, rec := range recs {
		r.opts.Stream(rec)
	}
}

// flushStream hands over what a streamed partition holds (records an
// old-format answer decoded; v2 batches are handed over as decoded).
func (r *reader) flushStream(c *cursor) {
	if !c.stream || len(c.recs) == 0 {
		return
	}
	r.toStream(c.recs)
	c.recs = c.recs[:0]
}

// isCanceledLiveError tells the echo of our own cancellation from a cause.
func isCanceledLiveError(err error) bool { return errors.Is(err, context.Canceled) }

type fetchResult struct {
	err      error
	progress bool
	partErrs map[*cursor]error
}

// fetchOnce sends one Fetch to leader for the cursors and applies the answer.
func (r *reader) fetchOnce(ctx context.Context, leader int32, cs []*cursor, iso kgo.IsolationLevel, dec kgo.Decompressor, maxWaitMs, partMaxBytes int32) fetchResult {
	if leader < 0 {
		return fetchResult{err: kerr.LeaderNotAvailable}
	}
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = maxWaitMs
	req.MinBytes = 1
	req.MaxBytes = fetchMaxBytes
	req.SessionEpoch = -1 // no fetch session: every request is complete in itself
	if iso == kgo.ReadCommitted() {
		req.IsolationLevel = 1
	}
	byTopic := map[string]int{}
	index := map[string]map[int32]*cursor{}
	for _, c := range cs {
		i, ok := byTopic[c.topic]
		if !ok {
			t := kmsg.NewFetchRequestTopic()
			t.Topic, t.TopicID = c.topic, c.id
			req.Topics = append(req.Topics, t)
			i = len(req.Topics) - 1
			byTopic[c.topic] = i
			index[c.topic] = map[int32]*cursor{}
		}
		p := kmsg.NewFetchRequestTopicPartition()
		p.Partition = c.partition
		p.FetchOffset = c.next
		p.CurrentLeaderEpoch = -1
		p.LogStartOffset = -1
		p.PartitionMaxBytes = partMaxBytes
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, p)
		index[c.topic][c.partition] = c
	}
	byID := map[[16]byte]string{}
	for _, c := range cs {
		byID[c.id] = c.topic
	}
	rctx, cancel := context.WithTimeout(ctx, r.opts.Conn.timeout())
	defer cancel()
	kresp, err := r.cl.Broker(int(leader)).Request(rctx, req)
	if err != nil {
		return fetchResult{err: err}
	}
	resp := kresp.(*kmsg.FetchResponse)
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return fetchResult{err: err}
	}
	res := fetchResult{partErrs: map[*cursor]error{}}
	for i := range resp.Topics {
		rt := &resp.Topics[i]
		name := rt.Topic
		if name == "" {
			name = byID[rt.TopicID]
		}
		for j := range rt.Partitions {
			rp := &rt.Partitions[j]
			c := index[name][rp.Partition]
			if c == nil || c.next >= c.end {
				continue
			}
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				res.partErrs[c] = err
				continue
			}
			kept := len(c.recs)
			next, err := decodeBatches(c, rp, iso == kgo.ReadCommitted(), dec)
			if errors.Is(err, errOldMagic) { // pre-0.11 message sets: franz-go's general decoder
				c.recs = c.recs[:kept]
				next, err = processOldFormat(c, rp, iso, dec)
			}
			if err != nil {
				c.recs = c.recs[:kept] // never keep part of an answer
				res.partErrs[c] = err
				continue
			}
			if next > c.next {
				c.next = min(next, c.end)
				res.progress = true
			}
		}
	}
	return res
}

// fatalFetchError reports request errors no retry can fix (authentication,
// TLS, authorization); connection losses and leader moves are retried.
func fatalFetchError(err error) bool {
	var kErr *kerr.Error
	if errors.As(err, &kErr) {
		return !kerr.IsRetriable(err) && kErr.Code != kerr.NotLeaderForPartition.Code && kErr.Code != kerr.LeaderNotAvailable.Code
	}
	return !retriableNetError(err)
}

// refreshLeaders re-reads the partitions' leaders after a leader moved or a
// broker went away. Errors are left for the next round to meet again.
func (r *reader) refreshLeaders(ctx context.Context, l *topicLayout, cs []*cursor) {
	rctx, cancel := context.WithTimeout(ctx, r.opts.Conn.timeout())
	defer cancel()
	md, err := r.adm.Metadata(rctx, l.order...)
	if err != nil {
		return
	}
	for _, c := range cs {
		if p, ok := md.Topics[c.topic].Partitions[c.partition]; ok {
			c.leader = p.Leader
		}
	}
}

// restartBelowLogStart handles OFFSET_OUT_OF_RANGE: records below the log
// start were deleted while we read (retention), so reading resumes at the new
// start. An offset above the end means the log was truncated under us.
func (r *reader) restartBelowLogStart(ctx context.Context, c *cursor) error {
	var starts kadm.ListedOffsets
	err := r.op(ctx, fmt.Sprintf("listing the start of %s partition %d", c.topic, c.partition), func(ctx context.Context) error {
		var err error
		starts, err = r.adm.ListStartOffsets(ctx, c.topic)
		return err
	})
	if err != nil {
		return err
	}
	s, ok := starts.Lookup(c.topic, c.partition)
	if !ok || s.Err != nil || s.Offset <= c.next {
		return &Error{What: fmt.Sprintf("reading %s partition %d at offset %d", c.topic, c.partition, c.next),
			Err: kerr.OffsetOutOfRange, Hint: setting.Textf("the log changed under the read (truncated after a leader change?); run the command again")}
	}
	c.next = min(s.Offset, c.end)
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func readUncommittedLevel() kgo.IsolationLevel { return kgo.ReadUncommitted() }

// decompressor is shared: franz-go's default one is safe for concurrent use.
var decompressor = kgo.DefaultDecompressor()

func defaultDecompressor() kgo.Decompressor { return decompressor }

// processOldFormat decodes an answer holding old message sets with
// franz-go's general decoder and returns the next offset to fetch.
func processOldFormat(c *cursor, rp *kmsg.FetchResponseTopicPartition, iso kgo.IsolationLevel, dec kgo.Decompressor) (int64, error) {
	fp, next := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		Offset: c.next, IsolationLevel: iso, Topic: c.topic, Partition: c.partition,
	}, rp, dec, nil)
	if fp.Err != nil {
		return c.next, fp.Err
	}
	for _, kr := range fp.Records {
		if kr.Offset < c.end {
			c.recs = append(c.recs, inspect.Record{Topic: c.topic, Partition: c.partition, Offset: kr.Offset,
				Timestamp: kr.Timestamp.UnixMilli(), Key: kr.Key, Value: kr.Value})
		}
	}
	return next, nil
}
