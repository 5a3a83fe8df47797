package redact

import (
	"strings"
	"testing"
)

// BenchmarkText is one failed task's trace as the status topic holds it: a
// Java stack trace of 40 frames whose message quotes a config, with no
// credential in it, the common case every status view redacts.
func BenchmarkText(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("org.apache.kafka.connect.errors.ConnectException: Failed to authenticate with key.converter=org.apache.kafka.connect.json.JsonConverter, tasks.max=3, topic=orders\n")
	for i := 0; i < 40; i++ {
		sb.WriteString("\tat org.apache.kafka.connect.runtime.WorkerSourceTask.poll(WorkerSourceTask.java:462)\n")
	}
	trace := sb.String()
	b.SetBytes(int64(len(trace)))
	for b.Loop() {
		if Text(trace) != trace {
			b.Fatal("redacted a trace without credentials")
		}
	}
}
