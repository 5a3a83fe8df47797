package store

import (
	"hash/fnv"
	"strconv"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// recOffsetsLoad builds n offsets records shaped like the live benchmark's
// topic (kafkatest.OffsetRecord): 100,000 source partitions (500 connectors
// x 200 tables) each written again and again, spread over 25 partitions by
// key hash and read back partition by partition, as a consumer sees them.
func recOffsetsLoad(n int) []inspect.Record {
	const partitions = 25
	byPartition := make([][]inspect.Record, partitions)
	for i := range n {
		conn, table := i%500, (i/500)%200
		key := `["source-` + strconv.Itoa(conn) + `",{"table":"table_` + strconv.Itoa(table) + `"}]`
		value := `{"lsn":` + strconv.Itoa(1_000_000+i) + `,"txid":` + strconv.Itoa(i) + `}`
		h := fnv.New32a()
		h.Write([]byte(key))
		p := int(h.Sum32() % partitions)
		byPartition[p] = append(byPartition[p], inspect.Record{Topic: "connect-offsets", Partition: int32(p),
			Offset: int64(len(byPartition[p])), Key: []byte(key), Value: []byte(value)})
	}
	// Keys and values sit one after another in read order, as they do in
	// the fetch responses a live read's records point into.
	recs := make([]inspect.Record, 0, n)
	var buf []byte
	for _, p := range byPartition {
		for _, r := range p {
			buf = append(buf, r.Key...)
			buf = append(buf, r.Value...)
			recs = append(recs, r)
		}
	}
	at := 0
	for i := range recs {
		r := &recs[i]
		k, v := len(r.Key), len(r.Value)
		r.Key, r.Value = buf[at:at+k:at+k], buf[at+k:at+k+v:at+k+v]
		at += k + v
	}
	return recs
}

// BenchmarkDecodeOffsets decodes 1,000,000 offsets records of 100,000
// distinct keys per iteration.
func BenchmarkDecodeOffsets(b *testing.B) {
	recs := recOffsetsLoad(1_000_000)
	var size int64
	for _, r := range recs {
		size += int64(len(r.Key) + len(r.Value))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res := DecodeOffsets(recs, DecodeOptions{})
		if res.Records.Problems != 0 || res.Records.Read != len(recs) || len(res.Offsets) != 100_000 {
			b.Fatalf("unexpected result %+v, %d offsets", res.Records, len(res.Offsets))
		}
	}
	b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}
