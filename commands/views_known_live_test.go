package commands

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestViewsLiveKnowTheOtherTopic reads a connector that one topic names and
// the view's own topic does not: live, as from a file, it is found (an
// empty view, exit 0), where a name neither topic holds is not found. A
// connector just created has a config and no status yet; a deleted one
// keeps its last statuses.
func TestViewsLiveKnowTheOtherTopic(t *testing.T) {
	t.Parallel() // owns its broker
	c := liveCluster(t)
	c.ProduceKeyed(t, &kgo.Record{Topic: kafkatest.ConfigTopic, Partition: -1, Key: []byte("connector-fresh"),
		Value: []byte(`{"properties":{"connector.class":"x.FreshSource","tasks.max":"1","name":"fresh"}}`)})
	c.ProduceKeyed(t, &kgo.Record{Topic: kafkatest.StatusTopic, Partition: -1, Key: []byte("status-connector-gone"),
		Value: []byte(`{"state":"UNASSIGNED","trace":null,"worker_id":"10.0.0.1:8083","generation":3}`)})
	for _, c2 := range []struct{ view, connector string }{
		{"status", "fresh"}, // configured, no status yet
		{"configs", "gone"}, // a status left, no config
		{"offsets", "gone"}, // no offsets, known by its status
		{"sinks", "gone"},   // no group, known by its status
	} {
		_, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", c2.view, "--connector", c2.connector)
		if code != 0 {
			t.Errorf("inspect %s --connector %s: exit %d, want 0 (the other topic names it): %s", c2.view, c2.connector, code, stderr)
		}
		_, stderr, code = run(t, "-b", c.Bootstrap(), "--timeout", "10s", "inspect", c2.view, "--connector", "nosuch")
		if code != ExitNotFound || !strings.Contains(stderr, `connector "nosuch" not found`) {
			t.Errorf("inspect %s --connector nosuch: exit %d, stderr %q", c2.view, code, stderr)
		}
	}
}
