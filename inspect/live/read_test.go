package live_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

func liveOpts(c *kafkatest.Cluster) live.Options {
	return live.Options{Conn: live.ConnOptions{Bootstrap: c.Addrs, Timeout: 5 * time.Second}}
}

func readLive(t *testing.T, opts live.Options) *inspect.Dataset {
	t.Helper()
	ds, err := live.Read(context.Background(), opts)
	if err != nil {
		t.Fatalf("ReadLive: %v", err)
	}
	return ds
}

func countByTopic(recs []inspect.Record) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		m[r.Topic]++
	}
	return m
}

func TestReadLiveTopicsAndDescriptions(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	want := c.SeedConnect(t)
	ds := readLive(t, liveOpts(c))

	got := countByTopic(ds.Records)
	for topic, n := range want {
		if got[topic] != n {
			t.Errorf("%s: read %d records, wrote %d", topic, got[topic], n)
		}
	}
	if len(ds.Records) != want[kafkatest.ConfigTopic]+want[kafkatest.StatusTopic]+want[kafkatest.OffsetTopic] {
		t.Errorf("read %d records in all", len(ds.Records))
	}
	// The config topic comes first, in log order.
	for i := 0; i < want[kafkatest.ConfigTopic]; i++ {
		if r := ds.Records[i]; r.Topic != kafkatest.ConfigTopic || r.Offset != int64(i) {
			t.Fatalf("record %d: %s/%d@%d, want config topic in offset order", i, r.Topic, r.Partition, r.Offset)
		}
	}
	if string(ds.Records[0].Key) != "connector-src" {
		t.Errorf("first key %q", ds.Records[0].Key)
	}
	if ds.EndOffsets[kafkatest.ConfigTopic][0] != int64(want[kafkatest.ConfigTopic]) {
		t.Errorf("config end offset %d", ds.EndOffsets[kafkatest.ConfigTopic][0])
	}
	if n := len(ds.EndOffsets[kafkatest.OffsetTopic]); n != 25 {
		t.Errorf("offsets topic: %d partitions listed", n)
	}
	parts := map[string]int{}
	for _, d := range ds.TopicDescriptions {
		parts[d.Name] = d.Partitions
		if !d.Exists || d.ReplicationFactor < 1 {
			t.Errorf("%+v", d)
		}
		if d.Configs == nil {
			t.Errorf("%s: no configs described", d.Name)
		}
	}
	if parts[kafkatest.ConfigTopic] != 1 || parts[kafkatest.OffsetTopic] != 25 || parts[kafkatest.StatusTopic] != 5 {
		t.Errorf("partitions %v", parts)
	}
	if ds.BrokerConfigs["group.min.session.timeout.ms"] == "" {
		t.Errorf("broker configs lack group.min.session.timeout.ms: %d keys", len(ds.BrokerConfigs))
	}
	if ds.Isolation != live.ReadUncommitted || ds.TakenAtMs == 0 {
		t.Errorf("isolation %q taken %d", ds.Isolation, ds.TakenAtMs)
	}
	if !inspect.GroupMissing(ds.Group) {
		t.Errorf("no worker joined, group = %+v", ds.Group)
	}
}

func TestReadLiveTombstonesAndEmptyValues(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.ProduceKeyed(t,
		&kgo.Record{Topic: kafkatest.StatusTopic, Partition: 2, Key: []byte("status-connector-a"), Value: []byte(`{}`)},
		&kgo.Record{Topic: kafkatest.StatusTopic, Partition: 2, Key: []byte("status-connector-a"), Value: nil},
		&kgo.Record{Topic: kafkatest.StatusTopic, Partition: 2, Key: nil, Value: []byte{}},
	)
	ds := readLive(t, liveOpts(c))
	if len(ds.Records) != 3 {
		t.Fatalf("%d records", len(ds.Records))
	}
	if ds.Records[1].Value != nil {
		t.Errorf("tombstone read as %q", ds.Records[1].Value)
	}
	if ds.Records[2].Key != nil || ds.Records[2].Value == nil {
		t.Errorf("null key / empty value: key=%v value=%v", ds.Records[2].Key, ds.Records[2].Value)
	}
}

func TestReadLiveStopsAtEndOffsetsOfStart(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	var recs []*kgo.Record
	for i := range 2000 {
		recs = append(recs, &kgo.Record{Topic: kafkatest.OffsetTopic, Partition: -1,
			Key: []byte(`["src",{"n":` + itoa(i) + `}]`), Value: []byte(`{"position":1}`)})
	}
	c.ProduceKeyed(t, recs...)
	ds := readLive(t, liveOpts(c))
	if n := countByTopic(ds.Records)[kafkatest.OffsetTopic]; n != 2000 {
		t.Fatalf("read %d of 2000", n)
	}
	// Per partition, offsets strictly increase: each partition's order is kept.
	last := map[int32]int64{}
	for _, r := range ds.Records {
		if r.Topic != kafkatest.OffsetTopic {
			continue
		}
		if prev, ok := last[r.Partition]; ok && r.Offset <= prev {
			t.Fatalf("partition %d: offset %d after %d", r.Partition, r.Offset, prev)
		}
		last[r.Partition] = r.Offset
	}
	total := int64(0)
	for _, e := range ds.EndOffsets[kafkatest.OffsetTopic] {
		total += e
	}
	if total != 2000 {
		t.Errorf("end offsets sum to %d", total)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestReadLiveIsolation(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.ProduceKeyed(t, &kgo.Record{Topic: kafkatest.ConfigTopic, Partition: 0, Key: []byte("commit-a"), Value: []byte(`{"tasks":0}`)})
	txn := c.Client(t, kgo.TransactionalID("connect-cluster-connect-cluster"), kgo.DefaultProduceTopic(kafkatest.ConfigTopic))
	ctx := context.Background()
	write := func(key string, commit bool) {
		t.Helper()
		if err := txn.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := txn.ProduceSync(ctx, &kgo.Record{Key: []byte(key), Value: []byte(`{"tasks":1}`)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := txn.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
	}
	write("commit-committed", true)
	write("commit-aborted", false) // the log now ends with an abort marker

	keys := func(ds *inspect.Dataset) []string {
		var out []string
		for _, r := range ds.Records {
			if r.Topic == kafkatest.ConfigTopic {
				out = append(out, string(r.Key))
			}
		}
		return out
	}
	opts := liveOpts(c)
	opts.Isolation = live.ReadCommitted
	got := keys(readLive(t, opts))
	if len(got) != 2 || got[0] != "commit-a" || got[1] != "commit-committed" {
		t.Errorf("read_committed: %v", got)
	}
	opts.Isolation = live.ReadUncommitted
	got = keys(readLive(t, opts))
	if len(got) != 3 || got[2] != "commit-aborted" {
		t.Errorf("read_uncommitted: %v", got)
	}
	if live.IsolationFor(" Enabled ") != live.ReadCommitted || live.IsolationFor("preparing") != live.ReadUncommitted {
		t.Error("IsolationFor")
	}
}

func TestReadLiveConnectGroup(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: "http://10.0.0.1:8083/", ConfigOffset: 11})
	if err != nil {
		t.Fatal(err)
	}
	var sent []byte
	assign := func(groupProtocol string, members map[string][]byte) map[string][]byte {
		out := map[string][]byte{}
		for id := range members {
			a, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: id, LeaderURL: "http://10.0.0.1:8083/",
				ConfigOffset: 11, Assigned: []protocol.ConnectorEntry{{Connector: "src", Tasks: []int32{-1, 0, 1}}}})
			if err != nil {
				t.Error(err)
			}
			out[id], sent = a, a
		}
		return out
	}
	c.JoinMember(t, kafkatest.Group, "connect", "connect-10.0.0.1:8083",
		[]kafkatest.Protocol{{Name: "sessioned", Metadata: meta}, {Name: "compatible", Metadata: meta}}, assign)

	ds := readLive(t, liveOpts(c))
	g := ds.Group
	if g == nil || g.State != inspect.GroupStable || g.ProtocolType != "connect" || g.Protocol != "sessioned" {
		t.Fatalf("group %+v", g)
	}
	if len(g.Members) != 1 || !bytes.Equal(g.Members[0].Metadata, meta) || !bytes.Equal(g.Members[0].Assignment, sent) {
		t.Fatalf("members %+v", g.Members)
	}
	if g.Members[0].ClientID != "connect-10.0.0.1:8083" || g.Members[0].ClientHost == "" {
		t.Errorf("member %+v", g.Members[0])
	}
	if err := live.GroupUnsettledError(g); err != nil {
		t.Errorf("stable group: %v", err)
	}
}

func TestReadLiveGroupStates(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.SeedTopics(1, "orders"))
	meta, _ := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 0, URL: "http://w:8083/", ConfigOffset: -1})
	noAssign := func(string, map[string][]byte) map[string][]byte { return nil }

	// A consumer group under the Connect group's name is "not a Connect group".
	other := kafkatest.New(t, kfake.SeedTopics(1, "orders"))
	other.SinkConsumer(t, kafkatest.Group, "x", 0, "orders")
	ds := readLive(t, liveOpts(other))
	if ds.Group.ProtocolType != "consumer" || live.GroupUnsettledError(ds.Group) == nil {
		t.Errorf("consumer group: %+v", ds.Group)
	}

	first := c.JoinMember(t, kafkatest.Group, "connect", "w1", []kafkatest.Protocol{{Name: "default", Metadata: meta}}, noAssign)
	// A second worker joins while the first hangs: the group stays in
	// PreparingRebalance until the first one's session times out.
	first.Pause()
	c.StartMember(t, kafkatest.Group, "connect", "w2", []kafkatest.Protocol{{Name: "default", Metadata: meta}}, noAssign)
	c.WaitGroupState(t, kafkatest.Group, "PreparingRebalance", 20*time.Second)
	ds = readLive(t, liveOpts(c))
	if !inspect.GroupRebalancing(ds.Group) {
		t.Fatalf("group not seen rebalancing: %+v", ds.Group)
	}
	err := live.GroupUnsettledError(ds.Group)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("rebalancing")) {
		t.Errorf("unsettled error: %v", err)
	}
	// Asked to wait, the read sees the group settle once the hung member is gone.
	opts := liveOpts(c)
	opts.GroupSettle = 8 * time.Second
	ds = readLive(t, opts)
	if ds.Group.State != inspect.GroupStable || len(ds.Group.Members) != 1 {
		t.Errorf("after settling: %+v", ds.Group)
	}
}

func TestReadLiveSinkGroups(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.SeedTopics(3, "orders"))
	c.SeedConnect(t)
	var orders []*kgo.Record
	for i := range 30 {
		orders = append(orders, &kgo.Record{Topic: "orders", Partition: int32(i % 3), Value: []byte("x")})
	}
	c.ProduceKeyed(t, orders...)

	// No consumer yet: both sink groups are missing, every partition unread.
	ds := readLive(t, liveOpts(c))
	if len(ds.SinkGroups) != 2 {
		t.Fatalf("sink groups %+v", ds.SinkGroups)
	}
	snk, over := ds.SinkGroups[0], ds.SinkGroups[1]
	if snk.Connector != "snk" || snk.Group != "connect-snk" || over.Connector != "snk-override" || over.Group != "custom-group" {
		t.Fatalf("refs: %+v / %+v", snk, over)
	}
	if snk.State != inspect.GroupDead || len(snk.Offsets) != 3 || snk.Offsets[0].Committed != -1 || snk.Offsets[0].End != 10 {
		t.Errorf("missing group: %+v", snk)
	}

	c.SinkConsumer(t, "connect-snk", "snk", 0, "orders")
	ds = readLive(t, liveOpts(c))
	snk = ds.SinkGroups[0]
	if snk.State != inspect.GroupStable || snk.ProtocolType != "consumer" || snk.Protocol == "" {
		t.Fatalf("sink group %+v", snk)
	}
	if len(snk.Members) != 1 || snk.Members[0].ClientID != "connector-consumer-snk-0" ||
		len(snk.Members[0].Partitions) != 1 || len(snk.Members[0].Partitions[0].Partitions) != 3 {
		t.Fatalf("members %+v", snk.Members)
	}
	for _, o := range snk.Offsets {
		if o.Committed != 10 || o.End != 10 {
			t.Errorf("offset %+v", o)
		}
	}
	opts := liveOpts(c)
	opts.SkipSinkGroups = true
	if ds := readLive(t, opts); len(ds.SinkGroups) != 0 {
		t.Errorf("SkipSinkGroups read %d groups", len(ds.SinkGroups))
	}
}

func TestReadLiveStream(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t)
	c.SeedConnect(t)
	recs := make([]*kgo.Record, 0, 3000)
	for i := range 3000 {
		r := kafkatest.OffsetRecord(i)
		if i%500 == 7 {
			r.Value = nil // some offsets reset
		}
		recs = append(recs, r)
	}
	c.ProduceKeyed(t, recs...)

	whole := readLive(t, liveOpts(c))
	_, _, offsets, _ := store.SplitTopics(whole.Records, whole.Topics)
	want := store.DecodeOffsets(offsets, store.DecodeOptions{})

	dec := store.NewOffsetsDecoder(store.DecodeOptions{})
	opts := liveOpts(c)
	opts.Stream, opts.StreamTopic = dec.Add, kafkatest.OffsetTopic
	ds := readLive(t, opts)
	got := dec.Result()
	if n := countByTopic(ds.Records)[kafkatest.OffsetTopic]; n != 0 {
		t.Errorf("streamed records were also kept: %d", n)
	}
	if countByTopic(ds.Records)[kafkatest.ConfigTopic] == 0 {
		t.Errorf("other topics were not read")
	}
	if got.Records != want.Records || got.Records.Read != 3000+2 || len(got.Offsets) != len(want.Offsets) {
		t.Fatalf("streamed %+v (%d offsets), whole %+v (%d offsets)", got.Records, len(got.Offsets), want.Records, len(want.Offsets))
	}
	for i := range got.Offsets {
		g, w := got.Offsets[i], want.Offsets[i]
		if g.Connector != w.Connector || string(g.Partition) != string(w.Partition) || string(g.Offset) != string(w.Offset) || g.KafkaOffset != w.KafkaOffset {
			t.Fatalf("offset %d: %+v vs %+v", i, g, w)
		}
	}
}

// A deleted sink's connect-NAME group outlives it: read, marked deleted,
// kept out of the sinks view; a deleted connector without a group adds
// nothing, and groups the cluster's topics never name are not looked at.
func TestReadLiveDeletedSinkGroups(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.SeedTopics(3, "orders"))
	c.SeedConnect(t)
	c.ProduceKeyed(t, &kgo.Record{Topic: "orders", Value: []byte("x")},
		&kgo.Record{Topic: kafkatest.ConfigTopic, Key: []byte("connector-gone")},
		&kgo.Record{Topic: kafkatest.StatusTopic, Key: []byte("status-connector-gone")},
		&kgo.Record{Topic: kafkatest.ConfigTopic, Key: []byte("connector-never-had-a-group")})
	c.SinkConsumer(t, "connect-gone", "gone", 0, "orders")
	c.SinkConsumer(t, "connect-other-cluster-sink", "other-cluster-sink", 0, "orders")
	ds := readLive(t, liveOpts(c))
	var deleted []inspect.SinkGroup
	for _, g := range ds.SinkGroups {
		if g.Deleted {
			deleted = append(deleted, g)
		}
		if g.Group == "connect-other-cluster-sink" {
			t.Errorf("a group this cluster never named was read: %+v", g)
		}
	}
	if len(deleted) != 1 || deleted[0].Group != "connect-gone" || deleted[0].Connector != "gone" || len(deleted[0].Offsets) == 0 {
		t.Fatalf("deleted groups: %+v", deleted)
	}
	for _, s := range group.Sinks(ds, "").Sinks {
		if s.Connector == "gone" {
			t.Errorf("the sinks view shows the deleted connector's group: %+v", s)
		}
	}
}
