package format

import (
	"fmt"
	"io"
	"testing"
)

// bigSample is a status-like result of 10,000 connectors.
func bigSample() sample {
	s := newSample()
	s.Connectors = nil
	for i := 0; i < 10000; i++ {
		w := fmt.Sprintf("10.0.%d.%d:8083", i/250, i%250)
		s.Connectors = append(s.Connectors, sampleConnector{Name: fmt.Sprintf("connector-%05d", i), State: "RUNNING", WorkerID: &w, Tasks: i % 10, Offset: int64(i) * 1000})
	}
	return s
}

func benchmarkWrite(b *testing.B, opts Options) {
	s := bigSample()
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, s, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteTable(b *testing.B) { benchmarkWrite(b, Options{Output: OutputTable}) }
func BenchmarkWriteJSON(b *testing.B)  { benchmarkWrite(b, Options{Output: OutputJSON}) }
func BenchmarkWriteJSONL(b *testing.B) { benchmarkWrite(b, Options{Output: OutputJSONL}) }
func BenchmarkWriteYAML(b *testing.B)  { benchmarkWrite(b, Options{Output: OutputYAML}) }
func BenchmarkWriteJQ(b *testing.B) {
	benchmarkWrite(b, Options{JQ: `.connectors[] | select(.tasks > 5) | .name`})
}
