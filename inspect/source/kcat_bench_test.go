package source

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// writeKcatDump writes n realistic kcat -J lines (config and status records
// with escaped JSON payloads, some tombstones) and returns the path.
func writeKcatDump(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "dump.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(w, `{"topic":"connect-configs","partition":0,"offset":%d,"tstype":"create","ts":%d,"broker":0,"key":"task-orders-%d","payload":"{\"properties\":{\"task.class\":\"org.apache.kafka.connect.file.FileStreamSinkTask\",\"topics\":\"orders\",\"file\":\"/tmp/orders.txt\"}}"}`+"\n", i, 1700000000000+int64(i), i%7)
		case 1:
			fmt.Fprintf(w, `{"topic":"connect-status","partition":%d,"offset":%d,"tstype":"create","ts":%d,"broker":0,"key":"status-task-orders-%d","payload":"{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"10.0.0.5:8083\",\"generation\":%d}"}`+"\n", i%5, i, 1700000000000+int64(i), i%7, i)
		case 2:
			fmt.Fprintf(w, `{"topic":"connect-offsets","partition":%d,"offset":%d,"tstype":"create","ts":%d,"broker":0,"key":"[\"orders-source\",{\"filename\":\"/var/log/orders-%d.log\"}]","payload":"{\"position\":%d}"}`+"\n", i%25, i, 1700000000000+int64(i), i%100, i)
		default:
			fmt.Fprintf(w, `{"topic":"connect-status","partition":%d,"offset":%d,"tstype":"create","ts":%d,"broker":0,"key":"status-connector-c%d","payload":null}`+"\n", i%5, i, 1700000000000+int64(i), i%50)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkLoadKcat loads a 1,000,000-line dump per iteration.
func BenchmarkLoadKcat(b *testing.B) {
	const lines = 1_000_000
	path := writeKcatDump(b, lines)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	var ms runtime.MemStats
	for i := 0; i < b.N; i++ {
		d, err := LoadFile(path, inspect.DefaultTopicNames())
		if err != nil || len(d.Records) != lines || len(d.Problems) != 0 {
			b.Fatalf("%d records, %d problems, %v", len(d.Records), len(d.Problems), err)
		}
		if i == b.N-1 {
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/float64(st.Size()), "heap/filebyte")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/lines, "ns/line")
}
