package cluster

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/internal/vectors"
)

// TestLastStatusesHostileKeys: the plan files a status under the piece
// Kafka reads from its key (the shared table), nothing for keys it discards.
func TestLastStatusesHostileKeys(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{{
			Topic: inspect.DefaultTopicNames().Status, Key: []byte(v.Key), Value: []byte(`{"state":"RUNNING","worker_id":"w:8083"}`), Timestamp: 5,
		}}}
		got := lastStatuses(views.Of(ds))
		want := map[PieceKey]bool{}
		switch v.Kind {
		case "connector":
			want[PieceKey{Connector: v.Connector, Task: -1}] = true
		case "task":
			want[PieceKey{Connector: v.Connector, Task: int(v.Task)}] = true
		}
		if len(got) != len(want) {
			t.Errorf("%q: %v, want %v", v.Key, got, want)
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%q: piece %+v, want %v", v.Key, k, want)
			}
		}
	}
}
