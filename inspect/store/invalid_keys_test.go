package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// Null values under keys Connect never writes are not tombstones: Kafka's
// stores discard such records as invalid, so they are problems. An empty
// key is "" in a problem, a missing key null.
func TestInvalidKeysWithNullValuesAreProblems(t *testing.T) {
	rec := func(topic string, key []byte, value []byte) inspect.Record {
		return inspect.Record{Topic: topic, Partition: 0, Offset: 7, Key: key, Value: value}
	}
	cases := []struct {
		name    string
		decode  func(inspect.Record) (tombstones, problems int, probs []inspect.Problem)
		r       inspect.Record
		wantKey string // the problem's JSON key field
	}{
		{"status key Connect never writes", decodeStatusOne, rec("connect-status", []byte("status-frobnicate-x"), nil), `"status-frobnicate-x"`},
		{"status null key", decodeStatusOne, rec("connect-status", nil, nil), `null`},
		{"status empty key", decodeStatusOne, rec("connect-status", []byte{}, nil), `""`},
		{"status task key without a number", decodeStatusOne, rec("connect-status", []byte("status-task-a"), nil), `"status-task-a"`},
		{"config unknown key", decodeConfigsOne, rec("connect-configs", []byte("frobnicate-x"), nil), `"frobnicate-x"`},
		{"config null key", decodeConfigsOne, rec("connect-configs", nil, nil), `null`},
		{"config empty key", decodeConfigsOne, rec("connect-configs", []byte{}, nil), `""`},
		{"offsets key not JSON", decodeOffsetsOne, rec("connect-offsets", []byte(`["src",{`), nil), `"[\"src\",{"`},
		{"offsets key not an array", decodeOffsetsOne, rec("connect-offsets", []byte(`{"a":1}`), nil), `"{\"a\":1}"`},
		{"offsets null key", decodeOffsetsOne, rec("connect-offsets", nil, nil), `null`},
		{"offsets empty key", decodeOffsetsOne, rec("connect-offsets", []byte{}, nil), `""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tomb, prob, probs := tc.decode(tc.r)
			if tomb != 0 || prob != 1 || len(probs) != 1 {
				t.Fatalf("tombstones %d problems %d (%v), want 0 and 1", tomb, prob, probs)
			}
			b, err := json.Marshal(probs[0])
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"key":`+tc.wantKey+`,`) {
				t.Errorf("problem %s, want key %s", b, tc.wantKey)
			}
		})
	}
	// Real tombstones stay tombstones.
	for _, r := range []inspect.Record{
		rec("connect-status", []byte("status-connector-a"), nil),
		rec("connect-status", []byte("status-task-a-0"), nil),
		rec("connect-configs", []byte("connector-a"), nil),
		rec("connect-offsets", []byte(`["src",{"file":"a"}]`), nil),
	} {
		var tomb, prob int
		switch r.Topic {
		case "connect-status":
			tomb, prob, _ = decodeStatusOne(r)
		case "connect-configs":
			tomb, prob, _ = decodeConfigsOne(r)
		default:
			tomb, prob, _ = decodeOffsetsOne(r)
		}
		if tomb != 1 || prob != 0 {
			t.Errorf("%s: tombstones %d problems %d, want a tombstone", r.Key, tomb, prob)
		}
	}
}

func decodeStatusOne(r inspect.Record) (int, int, []inspect.Problem) {
	res := DecodeStatus([]inspect.Record{r}, DecodeOptions{})
	return res.Records.Tombstones, res.Records.Problems, res.Problems
}

func decodeConfigsOne(r inspect.Record) (int, int, []inspect.Problem) {
	res := DecodeConfigs([]inspect.Record{r}, DecodeOptions{})
	return res.Records.Tombstones, res.Records.Problems, res.Problems
}

func decodeOffsetsOne(r inspect.Record) (int, int, []inspect.Problem) {
	res := DecodeOffsets([]inspect.Record{r}, DecodeOptions{})
	return res.Records.Tombstones, res.Records.Problems, res.Problems
}
