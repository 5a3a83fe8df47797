package watch

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/internal/vectors"
)

// deletedMessage is the event a tombstone under v's key gives once its
// piece is held ("" when Kafka reads no piece from the key).
func deletedMessage(v vectors.StatusKey) string {
	switch v.Kind {
	case "connector":
		return "connector " + v.Connector + ": status deleted"
	case "task":
		return "task " + protocol.TaskRef{Connector: v.Connector, Task: v.Task}.String() + ": status deleted"
	}
	return ""
}

// TestObserveStatusHostileKeys: a status then its tombstone, under each key
// of the shared table: the watch holds and deletes the piece Kafka reads
// from the key, and says nothing of keys Kafka discards.
func TestObserveStatusHostileKeys(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		w := New(0, nil)
		rec := inspect.Record{Topic: "connect-status", Key: []byte(v.Key),
			Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"w:8083","generation":1}`)}
		set := w.ObserveStatus(1, rec)
		rec.Value = nil
		deleted := w.ObserveStatus(2, rec)
		want := deletedMessage(v)
		if want == "" {
			if len(set)+len(deleted) != 0 {
				t.Errorf("%q: events %+v %+v, want none", v.Key, set, deleted)
			}
			continue
		}
		if len(set) != 1 || len(deleted) != 1 || deleted[0].Message != want {
			t.Errorf("%q: events %+v then %+v, want one each, the second %q", v.Key, set, deleted, want)
		}
	}
}
