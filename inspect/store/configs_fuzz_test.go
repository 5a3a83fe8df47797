package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// recSeedFuzz adds every record vector of one topic kind as a seed.
func recSeedFuzz(f *testing.F, kind string) {
	seeded := 0
	for _, v := range recLoadRecordVectors(f) {
		if v.TopicKind != kind {
			continue
		}
		r := v.record(f, 0)
		f.Add(r.Key, r.Value, r.Value == nil)
		seeded++
	}
	if seeded == 0 {
		f.Fatalf("no %s record vectors to seed with", kind)
	}
}

func recFuzzRecord(topic string, key, value []byte, null bool) inspect.Record {
	r := inspect.Record{Topic: topic, Key: key, Value: value, Offset: 1}
	if null {
		r.Value = nil
	} else if r.Value == nil {
		r.Value = []byte{}
	}
	return r
}

func recFuzzCheck(t *testing.T, result any, c inspect.RecordCounts, problems []inspect.Problem, read int) {
	t.Helper()
	if c.Read != read || c.Read != c.Decoded+c.Tombstones+c.Problems || len(problems) != c.Problems || problems == nil {
		t.Fatalf("counts %+v with %d problems for %d records", c, len(problems), read)
	}
	if _, err := json.Marshal(result); err != nil {
		t.Fatalf("result does not marshal: %v", err)
	}
}

// recSeedInvalidKeys adds the hostile keys of invalid_keys_test.go with
// null values: problems, not tombstones.
func recSeedInvalidKeys(f *testing.F, keys ...string) {
	f.Add([]byte(nil), []byte(nil), true)
	f.Add([]byte{}, []byte(nil), true)
	for _, k := range keys {
		f.Add([]byte(k), []byte(nil), true)
	}
}

func FuzzDecodeConfigs(f *testing.F) {
	recSeedFuzz(f, "config")
	recSeedInvalidKeys(f, "frobnicate-x", "task-a")
	f.Fuzz(func(t *testing.T, key, value []byte, null bool) {
		r := recFuzzRecord("connect-configs", key, value, null)
		recs := []inspect.Record{
			recSyntheticConnector("orders-sink", 0),
			{Key: []byte("task-orders-sink-0"), Value: []byte(`{"properties":{}}`)},
			r,
			{Key: []byte("commit-orders-sink"), Value: []byte(`{"tasks":1}`)},
			r,
		}
		res := DecodeConfigs(recs, DecodeOptions{})
		recFuzzCheck(t, res, res.Records, res.Problems, len(recs))
		res.Tables()
	})
}

func FuzzDecodeStatus(f *testing.F) {
	recSeedFuzz(f, "status")
	recSeedInvalidKeys(f, "status-frobnicate-x", "status-task-a")
	f.Fuzz(func(t *testing.T, key, value []byte, null bool) {
		r := recFuzzRecord("connect-status", key, value, null)
		recs := []inspect.Record{{Key: []byte("status-task-orders-sink-1"), Value: []byte(recRunning)}, r, r}
		res := DecodeStatus(recs, DecodeOptions{})
		recFuzzCheck(t, res, res.Records, res.Problems, len(recs))
		res.Tables()
		// The hand-written fast path must agree with encoding/json.
		if fast, ok := scanStatusValue(value); ok {
			slow, reason := parseStatusValueSlow(value)
			if reason != "" || !recSameStatus(fast, slow) {
				t.Fatalf("fast path accepted %q as %+v; slow path: %+v %q", value, fast, slow, reason)
			}
		}
	})
}

func FuzzDecodeOffsets(f *testing.F) {
	recSeedFuzz(f, "offset")
	recSeedInvalidKeys(f, `["src",{`, `{"a":1}`, `["src"]`)
	f.Fuzz(func(t *testing.T, key, value []byte, null bool) {
		r := recFuzzRecord("connect-offsets", key, value, null)
		res := DecodeOffsets([]inspect.Record{r, r}, DecodeOptions{})
		recFuzzCheck(t, res, res.Records, res.Problems, 2)
		res.Tables()
	})
}

// Valid JSON nested deeper than the decoder reads is named so, not "not
// JSON"; a string of brackets is text, and broken JSON stays "not JSON".
func TestNotJSONNamesTheDepth(t *testing.T) {
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	for in, want := range map[string]string{
		deep:                        "value is nested more than 10000 levels deep",
		`"` + deep + `"`:            "value is not JSON",
		`{"a":"\"[[[" ` + deep[:50]: "value is not JSON",
		`{"a":`:                     "value is not JSON",
	} {
		if got := notJSON("value", []byte(in)); !strings.HasPrefix(got, want) {
			t.Errorf("%.40q: %q, want %q", in, got, want)
		}
	}
	// As a config record's problem.
	res := DecodeConfigs([]inspect.Record{{Topic: "connect-configs", Key: []byte("connector-a"), Value: []byte(`{"properties":{"k":` + deep + `}}`)}}, DecodeOptions{})
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "nested more than 10000 levels deep") {
		t.Errorf("config record: %+v", res.Problems)
	}
}
