package store

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// TestOffsetRecordVectors decodes every offsets-topic record vector.
func TestOffsetRecordVectors(t *testing.T) {
	seen := 0
	all := recLoadRecordVectors(t)
	for _, v := range all {
		if v.TopicKind != "offset" {
			continue
		}
		seen++
		t.Run(v.Name, func(t *testing.T) {
			r := v.record(t, 11)
			r.Partition = 4
			var key []json.RawMessage
			if err := json.Unmarshal(r.Key, &key); err != nil || len(key) != 2 {
				t.Fatalf("vector key: %v", err)
			}
			if v.ValueUTF8 == nil {
				// The tombstone removes the offset the source-file vector stored.
				stored := recConfigVector(t, all, "offset-source-file").record(t, 1)
				res := DecodeOffsets([]inspect.Record{stored, r}, DecodeOptions{})
				recCheckCounts(t, v.Name, res.Records, res.Problems)
				if len(res.Offsets) != 0 || res.Records.Tombstones != 1 || res.Records.Decoded != 1 {
					t.Fatalf("after tombstone: %+v %+v", res.Offsets, res.Records)
				}
				return
			}
			res := DecodeOffsets([]inspect.Record{r}, DecodeOptions{})
			recCheckCounts(t, v.Name, res.Records, res.Problems)
			if len(res.Problems) != 0 || len(res.Offsets) != 1 {
				t.Fatalf("offsets %+v problems %+v", res.Offsets, res.Problems)
			}
			o := res.Offsets[0]
			if o.Connector != "orders-source" || o.KafkaPartition != 4 || o.KafkaOffset != 11 {
				t.Fatalf("offset %+v", o)
			}
			if !reflect.DeepEqual(recParseJSON(t, o.Partition), recParseJSON(t, key[1])) ||
				!reflect.DeepEqual(recParseJSON(t, o.Offset), recParseJSON(t, []byte(*v.ValueUTF8))) {
				t.Fatalf("partition %s offset %s", o.Partition, o.Offset)
			}
			// Numbers keep their exact text (123456789012345 does not become a float).
			if b, _ := json.Marshal(o); !json.Valid(b) {
				t.Fatalf("invalid JSON %s", b)
			}
		})
	}
	if seen != 3 {
		t.Fatalf("%d offset record vectors, want 3", seen)
	}
}
