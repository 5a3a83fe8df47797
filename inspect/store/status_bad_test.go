package store

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func recSt(key, value string) inspect.Record {
	r := inspect.Record{Topic: "connect-status", Key: []byte(key)}
	if value != "<null>" {
		r.Value = []byte(value)
	}
	return r
}

const recRunning = `{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":5}`

// TestStatusBadRecords: bad records are problems with reasons; the rest decodes.
func TestStatusBadRecords(t *testing.T) {
	recs := recNumbered(
		recSt("status-connector-a", recRunning),
		recSt("status-connector-", recRunning),                                        // 1 empty name
		recSt("status-connector-b", `{"state":"RUNNING"`),                             // 2 not JSON
		recSt("status-connector-b", `[1]`),                                            // 3 not an object
		recSt("status-connector-b", `{"state":"running","generation":1}`),             // 4 unknown state
		recSt("status-connector-b", `{"state":"RUNNING","generation":1.0}`),           // 5 not an integer
		recSt("status-connector-b", `{"state":"RUNNING","generation":1,"trace":7}`),   // 6 trace not a string
		recSt("status-task-a", recRunning),                                            // 7 no number
		recSt("status-task-a-x", recRunning),                                          // 8 no number
		recSt("status-task--1", recRunning),                                           // 9 empty connector
		recSt("status-topic-orders", `{}`),                                            // 10 no ':'
		recSt("status-topic-:connector-a", `{}`),                                      // 11 empty topic
		recSt("status-topic-t:connector-a", `{"topic":{"name":"t","connector":"a"}}`), // 12 no task
		recSt("status-bogus-a", recRunning),                                           // 13 unknown prefix
		recSt("status-task-a-0", recRunning),
		recSt("status-task-a-1", `null`), // 15 JSON null is not a tombstone here
	)
	res := DecodeStatus(recs, DecodeOptions{})
	recCheckCounts(t, "bad", res.Records, res.Problems)
	want := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15}
	if len(res.Problems) != len(want) {
		t.Fatalf("%d problems, want %d: %+v", len(res.Problems), len(want), res.Problems)
	}
	for i, p := range res.Problems {
		if p.Offset != want[i] || p.Reason == "" {
			t.Errorf("problem %d: %+v, want offset %d", i, p, want[i])
		}
	}
	for off, part := range map[int64]string{1: "empty connector", 2: "not JSON", 3: "not a JSON object",
		4: "unknown status state", 5: "integer", 6: "trace", 7: "task number", 13: "prefix"} {
		if p := res.Problems[indexOfOffset(res.Problems, off)]; !strings.Contains(p.Reason, part) {
			t.Errorf("offset %d: reason %q does not mention %q", off, p.Reason, part)
		}
	}
	if len(res.Connectors) != 1 || res.Connectors[0].Name != "a" || len(res.Tasks) != 1 || res.Tasks[0].ID != "a-0" {
		t.Fatalf("good records: %+v %+v", res.Connectors, res.Tasks)
	}
}

func indexOfOffset(ps []inspect.Problem, off int64) int {
	for i, p := range ps {
		if p.Offset == off {
			return i
		}
	}
	return 0
}

// TestStatusKafkaEdgeRules covers §7 reader rules beyond the replay vectors.
func TestStatusKafkaEdgeRules(t *testing.T) {
	t.Run("topic key connector after 11 characters", func(t *testing.T) {
		res := DecodeStatus(recNumbered(
			recSt("status-topic-t:connector-a:b", `{"topic":{"name":"t","connector":"a:b","task":0,"discoverTimestamp":1}}`),
		), DecodeOptions{})
		if len(res.Problems) != 0 || len(res.Topics) != 1 || res.Topics[0].Connector != "a:b" {
			t.Fatalf("%+v %+v", res.Topics, res.Problems)
		}
	})
	t.Run("topic key and value disagree", func(t *testing.T) {
		res := DecodeStatus(recNumbered(
			recSt("status-topic-t:connector-a", `{"topic":{"name":"u","connector":"a","task":0,"discoverTimestamp":1}}`),
			recSt("status-topic-t:connector-a", "<null>"),
			recSt("status-topic-t:connector-a", `{"topic":{"name":"v","connector":"a","task":2,"discoverTimestamp":1}}`),
		), DecodeOptions{})
		// Filed under the key: the tombstone removed the first, the third is held and shown as written.
		if len(res.Problems) != 2 || len(res.Topics) != 1 || res.Topics[0].Topic != "v" || res.Topics[0].Task != 2 {
			t.Fatalf("%+v %+v", res.Topics, res.Problems)
		}
	})
	t.Run("task key with trailing dash and sign", func(t *testing.T) {
		res := DecodeStatus(recNumbered(recSt("status-task-a-b-+3-", recRunning)), DecodeOptions{})
		if len(res.Tasks) != 1 || res.Tasks[0].Connector != "a-b" || res.Tasks[0].Task != 3 {
			t.Fatalf("%+v %+v", res.Tasks, res.Problems)
		}
	})
	t.Run("generation truncated to int, escapes and field order", func(t *testing.T) {
		res := DecodeStatus(recNumbered(
			recSt("status-connector-a", `{ "generation" : 4294967298 , "worker_id":"w\u00fc", "state":"FAILED","trace":"x\ny","extra":{"k":[1]}}`),
		), DecodeOptions{})
		c := res.Connectors
		if len(c) != 1 || c[0].Generation != 2 || *c[0].WorkerID != "wü" || *c[0].Trace != "x\ny" || c[0].State != "FAILED" {
			t.Fatalf("%+v %+v", c, res.Problems)
		}
	})
	t.Run("unassigned rule only for tasks", func(t *testing.T) {
		un := `{"state":"UNASSIGNED","trace":null,"worker_id":"w2:8083","generation":5}`
		res := DecodeStatus(recNumbered(
			recSt("status-connector-a", recRunning), recSt("status-connector-a", un),
			recSt("status-task-a-0", recRunning), recSt("status-task-a-0", un),
		), DecodeOptions{})
		if res.Connectors[0].State != "UNASSIGNED" || res.Tasks[0].State != "RUNNING" || res.Records.Decoded != 4 {
			t.Fatalf("%+v %+v", res.Connectors, res.Tasks)
		}
	})
	t.Run("connector tombstone drops tasks read so far only", func(t *testing.T) {
		res := DecodeStatus(recNumbered(
			recSt("status-task-a-0", recRunning), recSt("status-connector-a", "<null>"), recSt("status-task-a-1", recRunning),
		), DecodeOptions{})
		if len(res.Tasks) != 1 || res.Tasks[0].ID != "a-1" || len(res.Connectors) != 0 {
			t.Fatalf("%+v", res.Tasks)
		}
	})
}

// TestStatusFastPathAgrees: the hand scanner accepts exactly what the
// encoding/json path accepts, with the same result.
func TestStatusFastPathAgrees(t *testing.T) {
	for _, v := range []string{
		recRunning,
		`{"state":"FAILED","trace":"a\"b\\c\u0001","worker_id":null,"generation":-7}`,
		`{"state":"RUNNING","generation":0}`,
		` {"generation":12,"state":"PAUSED"} `,
		`{"state":"RUNNING","generation":01}`,
		`{"state":"RUNNING","generation":1}x`,
		`{"state":"RUNNING","generation":1,}`,
		`{"state":"RUNNING","generation":1e3}`,
		`{"state":"RUNNING","state":"PAUSED","generation":2}`,
		`{"state":"RUNNING","generation":99999999999999999999}`,
		"{\"state\":\"RUNNING\",\"generation\":1,\"trace\":\"tab\there\"}",
	} {
		slow, slowReason := parseStatusValueSlow([]byte(v))
		fast, ok := scanStatusValue([]byte(v))
		if ok && (slowReason != "" || !recSameStatus(fast, slow)) {
			t.Errorf("%s: fast %+v, slow %+v %q", v, fast, slow, slowReason)
		}
	}
}

func recSameStatus(a, b statusValue) bool {
	return a.state == b.state && a.generation == b.generation &&
		recSamePtr(statusText(a.worker), statusText(b.worker)) && recSamePtr(statusText(a.trace), statusText(b.trace))
}

func recSamePtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
