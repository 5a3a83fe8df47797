package kafkatest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// SeedConnect writes a small Connect cluster's records, as Connect writes
// them, and returns how many records it wrote per topic:
//   - source connector "src" (FileStreamSource, 2 tasks) with two source offsets;
//   - sink connector "snk" (FileStreamSink, topics=orders, 1 task);
//   - sink connector "snk-override" (topics=orders, consumer.override.group.id=custom-group);
//   - statuses for all connectors and tasks, one task FAILED.
func (c *Cluster) SeedConnect(t testing.TB) map[string]int {
	t.Helper()
	cfg := func(k, v string) *kgo.Record {
		return &kgo.Record{Topic: ConfigTopic, Partition: 0, Key: []byte(k), Value: []byte(v)}
	}
	recs := []*kgo.Record{
		cfg("connector-src", `{"properties":{"name":"src","connector.class":"org.apache.kafka.connect.file.FileStreamSourceConnector","tasks.max":"2","file":"/tmp/in","topic":"orders"}}`),
		cfg("target-state-src", `{"state":"STARTED","state.v2":"STARTED"}`),
		cfg("task-src-0", `{"properties":{"task.class":"org.apache.kafka.connect.file.FileStreamSourceTask","file":"/tmp/in"}}`),
		cfg("task-src-1", `{"properties":{"task.class":"org.apache.kafka.connect.file.FileStreamSourceTask","file":"/tmp/in2"}}`),
		cfg("commit-src", `{"tasks":2}`),
		cfg("connector-snk", `{"properties":{"name":"snk","connector.class":"org.apache.kafka.connect.file.FileStreamSinkConnector","tasks.max":"1","topics":"orders","file":"/tmp/out"}}`),
		cfg("task-snk-0", `{"properties":{"task.class":"org.apache.kafka.connect.file.FileStreamSinkTask","topics":"orders"}}`),
		cfg("commit-snk", `{"tasks":1}`),
		cfg("connector-snk-override", `{"properties":{"name":"snk-override","connector.class":"com.example.Mystery","topics":"orders","consumer.override.group.id":"custom-group"}}`),
		cfg("task-snk-override-0", `{"properties":{"topics":"orders"}}`),
		cfg("commit-snk-override", `{"tasks":1}`),
	}
	st := func(k, v string) *kgo.Record {
		return &kgo.Record{Topic: StatusTopic, Partition: -1, Key: []byte(k), Value: []byte(v)}
	}
	status := []*kgo.Record{
		st("status-connector-src", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.1:8083","generation":3}`),
		st("status-task-src-0", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.1:8083","generation":3}`),
		st("status-task-src-1", `{"state":"FAILED","trace":"java.lang.RuntimeException: boom","worker_id":"10.0.0.2:8083","generation":3}`),
		st("status-connector-snk", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.2:8083","generation":3}`),
		st("status-task-snk-0", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.2:8083","generation":3}`),
	}
	off := func(k, v string) *kgo.Record {
		return &kgo.Record{Topic: OffsetTopic, Partition: -1, Key: []byte(k), Value: []byte(v)}
	}
	offsets := []*kgo.Record{
		off(`["src",{"filename":"/tmp/in"}]`, `{"position":1234}`),
		off(`["src",{"filename":"/tmp/in2"}]`, `{"position":99}`),
	}
	c.ProduceKeyed(t, append(append(recs, status...), offsets...)...)
	return map[string]int{ConfigTopic: len(recs), StatusTopic: len(status), OffsetTopic: len(offsets)}
}

// ProduceKeyed writes records; a record with Partition -1 is placed by key
// hash (Kafka's default partitioner, as Connect's producers), others go to
// the partition they name.
func (c *Cluster) ProduceKeyed(t testing.TB, recs ...*kgo.Record) {
	t.Helper()
	cl := c.Client(t, kgo.ProducerLinger(0), kgo.RecordPartitioner(manualOrHash{}))
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("producing: %v", err)
	}
}

// manualOrHash partitions by the record's Partition field, or by Kafka's
// murmur2 key hash when it is -1.
type manualOrHash struct{}

func (manualOrHash) ForTopic(string) kgo.TopicPartitioner {
	return manualOrHashTopic{kgo.StickyKeyPartitioner(nil).ForTopic("")}
}

type manualOrHashTopic struct{ hash kgo.TopicPartitioner }

func (manualOrHashTopic) RequiresConsistency(*kgo.Record) bool { return true }
func (p manualOrHashTopic) Partition(r *kgo.Record, n int) int {
	if r.Partition >= 0 {
		return int(r.Partition)
	}
	return p.hash.Partition(r, n)
}

// SinkConsumer runs a consumer group as a sink task's consumer does (client
// id connector-consumer-<connector>-<task>): it joins group, consumes topics
// and commits what it read, until the test ends or Stop. It returns once the
// group has committed at least one offset for each partition that has data.
func (c *Cluster) SinkConsumer(t testing.TB, group, connector string, task int, topics ...string) *kgo.Client {
	t.Helper()
	assigned := make(chan struct{}, 1)
	cl := c.Client(t,
		kgo.ClientID(fmt.Sprintf("connector-consumer-%s-%d", connector, task)),
		kgo.ConsumerGroup(group), kgo.ConsumeTopics(topics...),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
			select {
			case assigned <- struct{}{}:
			default:
			}
		}),
		kgo.DisableAutoCommit(), kgo.SessionTimeout(3*time.Second), kgo.HeartbeatInterval(100*time.Millisecond))
	deadline := time.Now().Add(20 * time.Second)
	ends := endOffsets(t, cl, topics)
	joined := false
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		fs := cl.PollFetches(ctx)
		cancel()
		for _, e := range fs.Errors() {
			if !errors.Is(e.Err, context.DeadlineExceeded) {
				t.Fatalf("sink consumer %s: %v", group, e.Err)
			}
		}
		select {
		case <-assigned:
			joined = true
		default:
		}
		if joined && fs.NumRecords() == 0 && caughtUp(cl, ends) {
			break
		}
	}
	if !joined {
		t.Fatalf("sink consumer %s did not join", group)
	}
	if !caughtUp(cl, ends) {
		t.Fatalf("sink consumer %s did not read its topics to their end offsets %v within 20s", group, ends)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.CommitUncommittedOffsets(ctx); err != nil {
		t.Fatalf("sink consumer %s commit: %v", group, err)
	}
	return cl
}

// endOffsets lists the end offset of each partition of topics that has
// data.
func endOffsets(t testing.TB, cl *kgo.Client, topics []string) map[string]map[int32]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	listed, err := kadm.NewClient(cl).ListEndOffsets(ctx, topics...)
	if err == nil {
		err = listed.Error()
	}
	if err != nil {
		t.Fatalf("end offsets of %v: %v", topics, err)
	}
	out := map[string]map[int32]int64{}
	listed.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			if out[o.Topic] == nil {
				out[o.Topic] = map[int32]int64{}
			}
			out[o.Topic][o.Partition] = o.Offset
		}
	})
	return out
}

// caughtUp says whether cl has consumed every partition in ends to its end.
func caughtUp(cl *kgo.Client, ends map[string]map[int32]int64) bool {
	read := cl.UncommittedOffsets()
	for topic, ps := range ends {
		for p, end := range ps {
			if read[topic][p].Offset < end {
				return false
			}
		}
	}
	return true
}
