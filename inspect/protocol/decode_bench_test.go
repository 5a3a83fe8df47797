package protocol

import (
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// BenchmarkDecodeProtocolVectors decodes every shared protocol vector
// (assignments and member metadata) once per iteration.
func BenchmarkDecodeProtocolVectors(b *testing.B) {
	assignments := vectors.ProtocolSeeds(b, "assignment")
	metadata := vectors.ProtocolSeeds(b, "metadata")
	b.ReportAllocs()
	for b.Loop() {
		for _, blob := range assignments {
			_, _ = DecodeAssignment(blob)
		}
		for _, blob := range metadata {
			_, _ = DecodeMetadata(blob)
		}
	}
}
