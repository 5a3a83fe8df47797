package live

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// rawFetch fetches one partition from offset and returns the raw answer.
func rawFetch(t testing.TB, cl *kgo.Client, topic string, offset int64, committed bool) *kmsg.FetchResponseTopicPartition {
	t.Helper()
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID, req.MaxBytes, req.SessionEpoch = -1, 64<<20, -1
	if committed {
		req.IsolationLevel = 1
	}
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = topic
	md, err := kmsg.NewPtrMetadataRequest().RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range md.Topics {
		if mt.Topic != nil && *mt.Topic == topic {
			rt.TopicID = mt.TopicID
		}
	}
	p := kmsg.NewFetchRequestTopicPartition()
	p.FetchOffset, p.PartitionMaxBytes, p.CurrentLeaderEpoch, p.LogStartOffset = offset, 64<<20, -1, -1
	rt.Partitions = append(rt.Partitions, p)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	return &resp.Topics[0].Partitions[0]
}

func describeRecs(recs []inspect.Record) string {
	var b bytes.Buffer
	for _, r := range recs {
		fmt.Fprintf(&b, "%d ts=%d key=%q(nil=%v) value=%q(nil=%v)\n", r.Offset, r.Timestamp, r.Key, r.Key == nil, r.Value, r.Value == nil)
	}
	return b.String()
}

// TestDecodeBatchesMatchesFranzGo decodes the same raw fetch answers with
// our batch decoder and with franz-go's, for every compression codec,
// transactions committed and aborted, null keys, tombstones, empty values
// and headers, from the start and from inside a batch.
func TestDecodeBatchesMatchesFranzGo(t *testing.T) {
	t.Parallel()
	c := kafkatest.New(t, kfake.SeedTopics(1, "t"))
	ctx := context.Background()
	codecs := []kgo.CompressionCodec{kgo.NoCompression(), kgo.GzipCompression(), kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()}
	n := 0
	for _, codec := range codecs {
		cl := c.Client(t, kgo.DefaultProduceTopic("t"), kgo.ProducerBatchCompression(codec), kgo.ProducerLinger(20*time.Millisecond))
		var recs []*kgo.Record
		for i := range 50 {
			r := &kgo.Record{Key: []byte(fmt.Sprintf("k%d", n)), Value: []byte(fmt.Sprintf(`{"n":%d}`, n))}
			switch i % 7 {
			case 1:
				r.Key = nil
			case 2:
				r.Value = nil
			case 3:
				r.Value = []byte{}
			case 4:
				r.Headers = []kgo.RecordHeader{{Key: "h", Value: []byte("v")}}
			}
			recs = append(recs, r)
			n++
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	// Two transactional producers, one aborting, interleaved.
	a := c.Client(t, kgo.DefaultProduceTopic("t"), kgo.TransactionalID("a"))
	b := c.Client(t, kgo.DefaultProduceTopic("t"), kgo.TransactionalID("b"))
	for round := range 3 {
		for _, p := range []*kgo.Client{a, b} {
			if err := p.BeginTransaction(); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 4 {
			for _, p := range []*kgo.Client{a, b} {
				if err := p.ProduceSync(ctx, &kgo.Record{Key: []byte(fmt.Sprintf("txn-%d-%d", round, i)), Value: []byte("x")}).FirstErr(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := a.EndTransaction(ctx, kgo.TryCommit); err != nil {
			t.Fatal(err)
		}
		if err := b.EndTransaction(ctx, kgo.TryAbort); err != nil {
			t.Fatal(err)
		}
	}
	cl := c.Client(t)
	for _, committed := range []bool{false, true} {
		for _, from := range []int64{0, 3, 75, 260} {
			rp := rawFetch(t, cl, "t", from, committed)
			iso := kgo.ReadUncommitted()
			if committed {
				iso = kgo.ReadCommitted()
			}
			ours := &cursor{partRange: partRange{topic: "t", end: 1 << 40}, next: from}
			gotNext, err := decodeBatches(ours, rp, committed, defaultDecompressor())
			if err != nil {
				t.Fatalf("committed=%v from=%d: %v", committed, from, err)
			}
			theirs := &cursor{partRange: partRange{topic: "t", end: 1 << 40}, next: from}
			wantNext, err := processOldFormat(theirs, rp, iso, defaultDecompressor())
			if err != nil {
				t.Fatal(err)
			}
			if gotNext != wantNext || describeRecs(ours.recs) != describeRecs(theirs.recs) {
				t.Errorf("committed=%v from=%d: next %d vs franz-go %d\nours:\n%s\nfranz-go:\n%s", committed, from, gotNext, wantNext,
					describeRecs(ours.recs), describeRecs(theirs.recs))
			}
			if len(ours.recs) == 0 {
				t.Errorf("committed=%v from=%d: nothing decoded", committed, from)
			}
			t.Logf("committed=%v from=%d: %d records, next %d", committed, from, len(ours.recs), gotNext)
		}
	}
	// The end offset cuts records off exactly.
	rp := rawFetch(t, cl, "t", 0, false)
	cut := &cursor{partRange: partRange{topic: "t", end: 7}}
	if _, err := decodeBatches(cut, rp, false, defaultDecompressor()); err != nil || len(cut.recs) != 7 || cut.recs[6].Offset != 6 {
		t.Errorf("end 7: %d records, err %v", len(cut.recs), err)
	}
	// Corruption is reported, not decoded.
	bad := *rp
	bad.RecordBatches = append([]byte(nil), rp.RecordBatches...)
	bad.RecordBatches[batchHeaderLen+3] ^= 0xff
	if _, err := decodeBatches(&cursor{partRange: partRange{topic: "t", end: 1 << 40}}, &bad, false, defaultDecompressor()); err == nil {
		t.Error("a flipped byte went unnoticed")
	}
}

// FuzzDecodeBatches: any bytes as a fetch answer must not panic.
func FuzzDecodeBatches(f *testing.F) {
	f.Add(handBatch(f, 5, false))
	f.Add(handBatch(f, 9, true))
	f.Add(bytes.Repeat([]byte{0}, batchHeaderLen))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, committed := range []bool{false, true} {
			rp := &kmsg.FetchResponseTopicPartition{RecordBatches: data,
				AbortedTransactions: []kmsg.FetchResponseTopicPartitionAbortedTransaction{{ProducerID: 0, FirstOffset: 0}}}
			c := &cursor{partRange: partRange{topic: "t", end: 1 << 62}}
			_, _ = decodeBatches(c, rp, committed, defaultDecompressor())
		}
	})
}

// handBatch builds one uncompressed v2 batch of two records at base offset
// base (transactional when txn), CRC included.
func handBatch(t testing.TB, base int64, txn bool) []byte {
	t.Helper()
	var recs []byte
	for i, kv := range [][2][]byte{{[]byte("k"), []byte("v")}, {nil, nil}} {
		r := kmsg.Record{OffsetDelta: int32(i), TimestampDelta64: int64(i), Key: kv[0], Value: kv[1]}
		r.Length = int32(len(r.AppendTo(nil)) - 1) // the fields after the (one-byte) length
		recs = r.AppendTo(recs)
	}
	b := kmsg.RecordBatch{FirstOffset: base, Magic: 2, LastOffsetDelta: 1, FirstTimestamp: 1000, MaxTimestamp: 1001,
		ProducerID: 7, NumRecords: 2, Records: recs}
	if txn {
		b.Attributes = attrTransactional
	}
	raw := b.AppendTo(nil)
	binary.BigEndian.PutUint32(raw[batchLengthAt:], uint32(len(raw)-12))
	binary.BigEndian.PutUint32(raw[batchCRCAt:], crc32.Checksum(raw[batchAttributesAt:], castagnoli))
	return raw
}

func TestHandBatch(t *testing.T) {
	raw := handBatch(t, 5, false)
	c := &cursor{partRange: partRange{topic: "t", end: 100}}
	next, err := decodeBatches(c, &kmsg.FetchResponseTopicPartition{RecordBatches: raw}, false, defaultDecompressor())
	if err != nil || next != 7 || len(c.recs) != 2 || string(c.recs[0].Value) != "v" || c.recs[1].Key != nil || c.recs[1].Value != nil || c.recs[1].Timestamp != 1001 {
		t.Fatalf("next %d err %v recs %s", next, err, describeRecs(c.recs))
	}
	// Aborted under read_committed: skipped, offsets still advance.
	raw = handBatch(t, 5, true)
	c = &cursor{partRange: partRange{topic: "t", end: 100}}
	next, err = decodeBatches(c, &kmsg.FetchResponseTopicPartition{RecordBatches: raw,
		AbortedTransactions: []kmsg.FetchResponseTopicPartitionAbortedTransaction{{ProducerID: 7, FirstOffset: 5}}}, true, defaultDecompressor())
	if err != nil || next != 7 || len(c.recs) != 0 {
		t.Fatalf("aborted: next %d err %v recs %d", next, err, len(c.recs))
	}
	// Cut short: nothing decoded, nothing skipped.
	c = &cursor{partRange: partRange{topic: "t", end: 100}}
	if next, err := decodeBatches(c, &kmsg.FetchResponseTopicPartition{RecordBatches: raw[:len(raw)-1]}, false, defaultDecompressor()); err != nil || next != 0 || len(c.recs) != 0 {
		t.Fatalf("truncated: next %d err %v", next, err)
	}
}
