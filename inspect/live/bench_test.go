package live_test

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kgo"
)

var benchRecords = flag.Int("bench-records", 100_000, "records in the topic the live-read benchmarks fill (BENCHMARKS.md uses 1000000)")

// benchLive fills an embedded broker's topic with gen records, then reads
// and decodes it per iteration, reporting records/s and key+value MB/s.
func benchLive(b *testing.B, topic string, gen func(int) *kgo.Record, decode func([]inspect.Record) int) {
	c := kafkatest.New(b)
	bytes, err := kafkatest.Fill(context.Background(), c.Addrs, *benchRecords, gen)
	if err != nil {
		b.Fatal(err)
	}
	opts := live.Options{Conn: live.ConnOptions{Bootstrap: c.Addrs, Timeout: 30 * time.Second},
		Read: []string{topic}, SkipSinkGroups: true}
	b.SetBytes(bytes)
	b.ResetTimer()
	for b.Loop() {
		ds, err := live.Read(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if n := decode(ds.Records); n != *benchRecords {
			b.Fatalf("decoded %d of %d", n, *benchRecords)
		}
	}
	b.ReportMetric(float64(*benchRecords)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkLiveStatus: read the status topic and decode it, as
// `inspect status` does.
func BenchmarkLiveStatus(b *testing.B) {
	benchLive(b, kafkatest.StatusTopic, kafkatest.StatusRecord, func(recs []inspect.Record) int {
		return store.DecodeStatus(recs, store.DecodeOptions{}).Records.Read
	})
}

// BenchmarkLiveOffsets: read the 25-partition offsets topic and decode it.
func BenchmarkLiveOffsets(b *testing.B) {
	benchLive(b, kafkatest.OffsetTopic, kafkatest.OffsetRecord, func(recs []inspect.Record) int {
		return store.DecodeOffsets(recs, store.DecodeOptions{}).Records.Read
	})
}

// BenchmarkLiveReadOnly: the read alone, without decoding.
func BenchmarkLiveReadOnly(b *testing.B) {
	benchLive(b, kafkatest.StatusTopic, kafkatest.StatusRecord, func(recs []inspect.Record) int { return len(recs) })
}
