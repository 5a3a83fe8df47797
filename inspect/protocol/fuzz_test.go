package protocol

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// seedProtocolVectors adds the bytes of every protocol vector of one kind
// (join_protocols count as metadata) to the fuzz corpus.
func seedProtocolVectors(f *testing.F, kind string) {
	for _, b := range vectors.ProtocolSeeds(f, kind) {
		f.Add(b)
	}
}

// tooLongToEncode reports an encode error caused by U+FFFD replacement
// growing a string past Kafka's 32767-byte limit; nothing else may fail.
func tooLongToEncode(err error) bool {
	return err != nil && strings.Contains(err.Error(), "longer than the 32767")
}

func FuzzDecodeAssignment(f *testing.F) {
	seedProtocolVectors(f, "assignment")
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAssignment(b)
		if a == nil {
			t.Fatal("nil result")
		}
		if err != nil {
			return
		}
		enc, err := EncodeAssignment(a)
		if tooLongToEncode(err) {
			return
		}
		if err != nil {
			t.Fatalf("encode of decoded %x: %v", b, err)
		}
		again, err := DecodeAssignment(enc)
		if err != nil {
			t.Fatalf("re-decode of %x: %v", enc, err)
		}
		enc2, err := EncodeAssignment(again)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable: %x then %x (%v)", enc, enc2, err)
		}
		if !sameAssignment(a, again) {
			t.Fatalf("decode→encode→decode changed %+v into %+v", a, again)
		}
	})
}

func FuzzDecodeMetadata(f *testing.F) {
	seedProtocolVectors(f, "metadata")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMetadata(b)
		if m == nil {
			t.Fatal("nil result")
		}
		if err != nil {
			return
		}
		enc, err := EncodeMetadata(m)
		if tooLongToEncode(err) {
			return
		}
		if err != nil {
			t.Fatalf("encode of decoded %x: %v", b, err)
		}
		again, err := DecodeMetadata(enc)
		if err != nil {
			t.Fatalf("re-decode of %x: %v", enc, err)
		}
		enc2, err := EncodeMetadata(again)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable: %x then %x (%v)", enc, enc2, err)
		}
		if m.Version != again.Version || m.URL != again.URL || m.ConfigOffset != again.ConfigOffset ||
			(m.Allocation == nil) != (again.Allocation == nil) ||
			(m.Allocation != nil && !sameAssignment(m.Allocation, again.Allocation)) {
			t.Fatalf("decode→encode→decode changed %+v into %+v", m, again)
		}
	})
}

// sameAssignment compares what an assignment means: header fields, entries
// (a null array and an empty one are the same to Kafka) and delay.
func sameAssignment(a, b *Assignment) bool {
	norm := func(es []ConnectorEntry) []ConnectorEntry {
		if es == nil {
			return []ConnectorEntry{}
		}
		return es
	}
	return a.Version == b.Version && a.Error == b.Error && a.Leader == b.Leader && a.LeaderURL == b.LeaderURL &&
		a.ConfigOffset == b.ConfigOffset && a.DelayMs == b.DelayMs &&
		reflect.DeepEqual(norm(a.Assigned), norm(b.Assigned)) && reflect.DeepEqual(norm(a.Revoked), norm(b.Revoked))
}

// Rewriting the URL of decodable metadata or an assignment changes that
// URL and nothing else a decoder sees; anything else is left as it is.
func FuzzRewriteURL(f *testing.F) {
	seedProtocolVectors(f, "metadata")
	seedProtocolVectors(f, "assignment")
	const to = "http://w:8083/"
	set := func(string) string { return to }
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := DecodeMetadata(b); err == nil {
			got, err := DecodeMetadata(RewriteMetadataURL(b, set))
			if err != nil || got.URL != to || got.Version != m.Version || got.ConfigOffset != m.ConfigOffset ||
				(m.Allocation == nil) != (got.Allocation == nil) {
				t.Fatalf("metadata %x rewritten: %+v, %v; was %+v", b, got, err, m)
			}
			if m.Allocation != nil {
				if got.Allocation.LeaderURL != to {
					t.Fatalf("metadata %x: the owned assignment's leader URL %q stays", b, got.Allocation.LeaderURL)
				}
				got.Allocation.LeaderURL = m.Allocation.LeaderURL
				if !sameAssignment(m.Allocation, got.Allocation) {
					t.Fatalf("metadata %x: rewriting its URLs changed the owned %+v into %+v", b, m.Allocation, got.Allocation)
				}
			}
		} else if !bytes.Equal(RewriteMetadataURL(b, set), b) && len(b) < 4 {
			t.Fatalf("%x: too short for a URL, yet rewritten", b)
		}
		if a, err := DecodeAssignment(b); err == nil {
			got, err := DecodeAssignment(RewriteLeaderURL(b, set))
			if err != nil || got.LeaderURL != to {
				t.Fatalf("assignment %x rewritten: %+v, %v", b, got, err)
			}
			got.LeaderURL = a.LeaderURL
			if !sameAssignment(a, got) {
				t.Fatalf("assignment %x: rewriting its URL changed %+v into %+v", b, a, got)
			}
		} else {
			RewriteLeaderURL(b, set) // held to not panicking
		}
	})
}
