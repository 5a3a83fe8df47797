package store

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// Compaction can leave a connector's task commit before its surviving
// config record. From 3.7.1/3.8.0 (KAFKA-16838) the commit is ignored and
// the connector ends with no tasks; before, the commit applied its tasks.
func TestConfigCommitBeforeConfigFollowsVersion(t *testing.T) {
	rec := func(offset int64, key, value string) inspect.Record {
		return inspect.Record{Topic: "connect-configs", Offset: offset, Key: []byte(key), Value: []byte(value)}
	}
	records := []inspect.Record{
		rec(0, "task-c-0", `{"properties":{"task.class":"T"}}`),
		rec(1, "commit-c", `{"tasks":1}`),
		rec(2, "connector-c", `{"properties":{"connector.class":"X","tasks.max":"1"}}`),
	}
	for _, tc := range []struct {
		version   string
		wantTasks int
	}{
		{"", 0}, {"3.9.1", 0}, {"4.4.0", 0}, {"3.8.0", 0}, {"3.7.1", 0},
		{"3.7.0", 1}, {"3.6.2", 1}, {"2.8.2", 1},
	} {
		v, err := kafkaversion.Parse(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		res := DecodeConfigs(records, DecodeOptions{KafkaVersion: v})
		if len(res.Connectors) != 1 {
			t.Fatalf("%q: connectors %+v", tc.version, res.Connectors)
		}
		c := res.Connectors[0]
		if len(c.Tasks) != tc.wantTasks || !c.Consistent || len(res.Problems) != 0 {
			t.Errorf("--kafka-version %q: %d tasks (consistent %v, problems %v), want %d", tc.version, len(c.Tasks), c.Consistent, res.Problems, tc.wantTasks)
		}
		if (c.TaskCount != nil) != (tc.wantTasks == 1) {
			t.Errorf("--kafka-version %q: task count %v", tc.version, c.TaskCount)
		}
	}
}
