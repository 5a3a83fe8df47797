package store

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/redact"

	"github.com/connectscope/connectscope/inspect"
)

func recCfg(key, value string) inspect.Record {
	r := inspect.Record{Topic: "connect-configs", Key: []byte(key)}
	if value != "<null>" {
		r.Value = []byte(value)
	}
	return r
}

func recNumbered(recs ...inspect.Record) []inspect.Record {
	for i := range recs {
		recs[i].Offset = int64(i)
	}
	return recs
}

// TestConfigsBadRecords: bad records become problems with reasons, at their
// offsets, and the good records around them still decode.
func TestConfigsBadRecords(t *testing.T) {
	recs := recNumbered(
		recCfg("connector-a", `{"properties":{"connector.class":"X","tasks.max":"1"}}`),
		recCfg("connector-b", `{not json`),                                               // 1
		recCfg("connector-a", `["properties"]`),                                          // 2 wrong shape: previous config stays
		recCfg("connector-a", `{"props":{}}`),                                            // 3 no properties
		recCfg("frobnicate-a", `{}`),                                                     // 4 unknown prefix
		recCfg("task-a", `{"properties":{}}`),                                            // 5 too few parts
		recCfg("task-a-x", `{"properties":{}}`),                                          // 6 no number
		recCfg("task-a-0", `{"properties":{"task.class":"T"}}`),                          // good
		recCfg("commit-a", `{"tasks":"1"}`),                                              // 8 string count
		recCfg("commit-a", `{"tasks":1.0}`),                                              // 9 double
		recCfg("target-state-a", `{"state":"paused"}`),                                   // 10 unknown state
		recCfg("target-state-a", `{"state.v2":"FOO","state":"PAUSED"}`),                  // 11 no fallback
		recCfg("session-key", `{"key":"!!","algorithm":"H","creation-timestamp":1}`),     // 12 bad base64
		recCfg("session-key", `{"key":"AQ==","algorithm":"H","creation-timestamp":"1"}`), // 13
		recCfg("tasks-fencing-a", `{"task-count":true}`),                                 // 14
		recCfg("logger-cluster-x", `{"level":5}`),                                        // 15
		recCfg("restart-connector-a", `7`),                                               // 16 not an object
		recCfg("unknown-with-null", "<null>"),                                            // 17 invalid key: discarded by Kafka, a problem
		inspect.Record{Topic: "connect-configs", Value: []byte(`{}`)},                    // 18 no key
		recCfg("commit-a", `{"tasks":1}`),                                                // good
	)
	res := DecodeConfigs(recs, DecodeOptions{})
	recCheckCounts(t, "bad", res.Records, res.Problems)
	wantOffsets := []int64{1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	if len(res.Problems) != len(wantOffsets) {
		t.Fatalf("%d problems, want %d: %+v", len(res.Problems), len(wantOffsets), res.Problems)
	}
	for i, p := range res.Problems {
		if p.Offset != wantOffsets[i] || p.Reason == "" || p.Topic != "connect-configs" {
			t.Errorf("problem %d: %+v, want offset %d", i, p, wantOffsets[i])
		}
	}
	for _, want := range []struct {
		offset int64
		part   string
	}{{1, "not JSON"}, {2, "not a JSON object"}, {4, "prefix"}, {5, "task number"}, {6, "task number"},
		{8, "integer"}, {10, "unknown target state"}, {12, "base64"}} {
		for _, p := range res.Problems {
			if p.Offset == want.offset && !strings.Contains(p.Reason, want.part) {
				t.Errorf("offset %d reason %q does not mention %q", p.Offset, p.Reason, want.part)
			}
		}
	}
	if res.Records.Read != 20 || res.Records.Tombstones != 0 || res.Records.Decoded != 3 {
		t.Fatalf("counts %+v", res.Records)
	}
	if len(res.Connectors) != 1 {
		t.Fatalf("connectors %+v", res.Connectors)
	}
	c := res.Connectors[0]
	if c.Config["tasks.max"] != "1" || c.TargetState != "STARTED" || c.TaskCount == nil || *c.TaskCount != 1 ||
		len(c.Tasks) != 1 || c.Tasks[0].Config["task.class"] != "T" || !c.Consistent {
		t.Fatalf("good records did not decode: %+v", c)
	}
	if res.SessionKey != nil || len(res.TaskCountRecords) != 0 || len(res.RestartRequests) != 0 {
		t.Fatalf("bad records changed state: %+v %+v %+v", res.SessionKey, res.TaskCountRecords, res.RestartRequests)
	}
}

// TestConfigsKafkaEdgeRules covers reader rules of connect-internals.md §6
// that the replay vectors do not reach.
func TestConfigsKafkaEdgeRules(t *testing.T) {
	t.Run("count truncated to int", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a", `{"properties":{}}`),
			recCfg("task-a-0", `{"properties":{}}`),
			recCfg("commit-a", `{"tasks":4294967297}`),
			recCfg("tasks-fencing-a", `{"task-count":4294967298}`),
		), DecodeOptions{})
		c := res.Connectors[0]
		if c.TaskCount == nil || *c.TaskCount != 1 || len(c.Tasks) != 1 || res.TaskCountRecords["a"] != 2 {
			t.Fatalf("%+v %v", c, res.TaskCountRecords)
		}
	})
	t.Run("state.v2 not a string falls back to state", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a", `{"properties":{}}`),
			recCfg("target-state-a", `{"state":"PAUSED","state.v2":7}`),
		), DecodeOptions{})
		if res.Connectors[0].TargetState != "PAUSED" || len(res.Problems) != 0 {
			t.Fatalf("%+v %+v", res.Connectors, res.Problems)
		}
	})
	t.Run("malformed commit without config still clears", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("task-a-0", `{"properties":{}}`),
			recCfg("commit-a", `"x"`),
			recCfg("connector-a", `{"properties":{}}`),
		), DecodeOptions{})
		if len(res.Problems) != 1 || len(res.Connectors[0].PendingTasks) != 0 {
			t.Fatalf("%+v %+v", res.Problems, res.Connectors)
		}
	})
	t.Run("null commit with config keeps buffer", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a", `{"properties":{}}`),
			recCfg("task-a-0", `{"properties":{}}`),
			recCfg("commit-a", "<null>"),
		), DecodeOptions{})
		c := res.Connectors[0]
		if len(c.PendingTasks) != 1 || c.TaskCount != nil || res.Records.Tombstones != 1 {
			t.Fatalf("%+v %+v", c, res.Records)
		}
	})
	t.Run("task key names with dashes and a trailing dash", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a-b", `{"properties":{}}`),
			recCfg("task-a-b-1-", `{"properties":{}}`),
		), DecodeOptions{})
		if p := res.Connectors[0].PendingTasks; len(p) != 1 || p[0] != "a-b-1" {
			t.Fatalf("pending %v", p)
		}
	})
	t.Run("JSON null text deletes like a tombstone", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a", `{"properties":{}}`),
			recCfg("connector-a", `null`),
		), DecodeOptions{})
		if len(res.Connectors) != 0 || len(res.Problems) != 0 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("pending tasks sort by number", func(t *testing.T) {
		var recs []inspect.Record
		recs = append(recs, recCfg("connector-a", `{"properties":{}}`))
		for _, n := range []string{"10", "2", "1"} {
			recs = append(recs, recCfg("task-a-"+n, `{"properties":{}}`))
		}
		res := DecodeConfigs(recNumbered(recs...), DecodeOptions{})
		if got := strings.Join(res.Connectors[0].PendingTasks, ","); got != "a-1,a-2,a-10" {
			t.Fatalf("pending %s", got)
		}
	})
	t.Run("connector filter", func(t *testing.T) {
		res := DecodeConfigs(recNumbered(
			recCfg("connector-a", `{"properties":{}}`),
			recCfg("connector-b", `{"properties":{}}`),
			recCfg("restart-connector-b", `{}`),
		), DecodeOptions{Connector: "a"})
		if len(res.Connectors) != 1 || res.Connectors[0].Name != "a" || len(res.RestartRequests) != 0 || res.Records.Read != 3 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("secrets redacted unless shown", func(t *testing.T) {
		recs := recNumbered(recCfg("connector-a", `{"properties":{"database.password":"hunter2","ssl.key":"k","jaas.ref":"${file:/s:jaas}","user":"u"}}`))
		hidden := DecodeConfigs(recs, DecodeOptions{}).Connectors[0].Config
		shown := DecodeConfigs(recs, DecodeOptions{ShowSecrets: true}).Connectors[0].Config
		if hidden["database.password"] != redact.Placeholder || hidden["ssl.key"] != redact.Placeholder || hidden["jaas.ref"] != "${file:/s:jaas}" || hidden["user"] != "u" {
			t.Fatalf("hidden %v", hidden)
		}
		if shown["database.password"] != "hunter2" {
			t.Fatalf("shown %v", shown)
		}
	})
}
