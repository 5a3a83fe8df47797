package live

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/internal/vectors"
)

// TestStatusKeysHostile: a connector's status left in the status topic
// names a deleted sink, and its tombstone crosses partitions, only when
// Kafka reads the key as a connector's (the shared table).
func TestStatusKeysHostile(t *testing.T) {
	topics := inspect.DefaultTopicNames()
	for _, v := range vectors.HostileStatusKeys {
		rec := inspect.Record{Topic: topics.Status, Key: []byte(v.Key), Value: []byte(`{}`)}
		refs := deletedRefs([]inspect.Record{rec}, &store.ConfigsResult{}, topics, "connect-cluster")
		rec.Value = nil
		crosses := hasConnectorTombstone([]inspect.Record{rec})
		if v.Kind != "connector" {
			if len(refs) != 0 || crosses {
				t.Errorf("%q: sinks %+v, crosses %v, want none", v.Key, refs, crosses)
			}
			continue
		}
		if len(refs) != 1 || refs[0].Connector != v.Connector || !crosses {
			t.Errorf("%q: sinks %+v, crosses %v, want %q", v.Key, refs, crosses, v.Connector)
		}
	}
}
