package store

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
)

// recStatusLoad builds n status records shaped like a busy cluster's topic:
// 500 connectors with 8 tasks each, rebalances rewriting every status with
// rising generations, a FAILED trace now and then, tombstones and topics.
func recStatusLoad(n int) []inspect.Record {
	const connectors, tasks = 500, 8
	states := []string{"RUNNING", "UNASSIGNED", "RUNNING", "PAUSED", "RUNNING", "RESTARTING"}
	trace := strconv.Quote("org.apache.kafka.connect.errors.ConnectException: boom\n\tat com.example.Task.poll(Task.java:42)\n\tat org.apache.kafka.connect.runtime.WorkerSourceTask.poll(WorkerSourceTask.java:462)\n")
	recs := make([]inspect.Record, 0, n)
	for i := 0; len(recs) < n; i++ {
		c := "connector-" + strconv.Itoa(i%connectors)
		gen := strconv.Itoa(i / (connectors * (tasks + 1)))
		worker := "10.0.0." + strconv.Itoa(i%7) + ":8083"
		var key, value string
		switch slot := i % (tasks + 1); {
		case slot == tasks:
			key = "status-connector-" + c
			value = `{"state":"RUNNING","trace":null,"worker_id":"` + worker + `","generation":` + gen + `}`
		case i%997 == 0:
			key = "status-task-" + c + "-" + strconv.Itoa(slot)
			value = `{"state":"FAILED","trace":` + trace + `,"worker_id":"` + worker + `","generation":` + gen + `}`
		default:
			key = "status-task-" + c + "-" + strconv.Itoa(slot)
			value = `{"state":"` + states[i%len(states)] + `","trace":null,"worker_id":"` + worker + `","generation":` + gen + `}`
		}
		r := inspect.Record{Topic: "connect-status", Partition: int32(i % 5), Offset: int64(i / 5), Key: []byte(key), Value: []byte(value)}
		switch {
		case i%10007 == 0:
			r.Value = nil // a connector or task removed
		case i%1009 == 0:
			r.Key = []byte("status-topic-orders-" + strconv.Itoa(i%50) + ":connector-" + c)
			r.Value = []byte(`{"topic":{"name":"orders-` + strconv.Itoa(i%50) + `","connector":"` + c + `","task":0,"discoverTimestamp":1700000000000}}`)
		}
		recs = append(recs, r)
	}
	return recs
}

// BenchmarkDecodeStatus decodes 1,000,000 status records per iteration.
func BenchmarkDecodeStatus(b *testing.B) {
	recs := recStatusLoad(1_000_000)
	var size int64
	for _, r := range recs {
		size += int64(len(r.Key) + len(r.Value))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res := DecodeStatus(recs, DecodeOptions{})
		if res.Records.Problems != 0 || res.Records.Read != len(recs) {
			b.Fatalf("unexpected result %+v %v", res.Records, res.Problems[:1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(recs)), "ns/record")
}

// recStatusDump renders records as a kcat -J dump, as `inspect status --from`
// reads it.
func recStatusDump(recs []inspect.Record) []byte {
	var buf []byte
	for _, r := range recs {
		buf = append(buf, `{"topic":"connect-status","partition":`...)
		buf = strconv.AppendInt(buf, int64(r.Partition), 10)
		buf = append(buf, `,"offset":`...)
		buf = strconv.AppendInt(buf, r.Offset, 10)
		buf = append(buf, `,"tstype":"create","ts":1700000000000,"broker":0,"key":`...)
		buf = strconv.AppendQuote(buf, string(r.Key))
		buf = append(buf, `,"payload":`...)
		if r.Value == nil {
			buf = append(buf, "null"...)
		} else {
			buf = strconv.AppendQuote(buf, string(r.Value))
		}
		buf = append(buf, "}\n"...)
	}
	return buf
}

// BenchmarkStatusFromDump is `inspect status --from dump.jsonl` without the
// printing: read a 1,000,000-line kcat dump, split the topics, decode.
func BenchmarkStatusFromDump(b *testing.B) {
	dump := recStatusDump(recStatusLoad(1_000_000))
	b.SetBytes(int64(len(dump)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ds, err := source.ReadKcat(bytes.NewReader(dump), inspect.DefaultTopicNames())
		if err != nil || len(ds.Problems) != 0 {
			b.Fatalf("reading dump: %v %v", err, ds.Problems)
		}
		_, status, _, unknown := SplitTopics(ds.Records, ds.Topics)
		res := DecodeStatus(status, DecodeOptions{})
		if len(unknown) != 0 || res.Records.Read != 1_000_000 || res.Records.Problems != 0 {
			b.Fatalf("unexpected result %+v", res.Records)
		}
	}
}
