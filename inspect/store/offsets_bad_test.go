package store

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func recOff(key, value string) inspect.Record {
	r := inspect.Record{Topic: "connect-offsets", Key: []byte(key)}
	if value != "<null>" {
		r.Value = []byte(value)
	}
	return r
}

func TestOffsetsBadRecords(t *testing.T) {
	recs := recNumbered(
		recOff(`["src",{"file":"a"}]`, `{"pos":1}`),
		recOff(`["src",{"file":"a"}`, `{"pos":1}`),   // 1 key not JSON
		recOff(`{"src":1}`, `{"pos":1}`),             // 2 not an array
		recOff(`["src",null]`, `{"pos":1}`),          // 3 partition null
		recOff(`[7,{"file":"a"}]`, `{"pos":1}`),      // 4 name not a string
		recOff(`["src",{"f":1},3]`, `{"pos":1}`),     // 5 three elements
		recOff(`["src",{"file":"b"}]`, `{"pos":`),    // 6 value not JSON
		recOff(`["src",{"file":"b"}]`, `[1]`),        // 7 value not an object
		recOff(`["other",{"x":1}]`, "<null>"),        // tombstone for a key never stored
		recOff(`["src", {"file":"a"}]`, `{"pos":2}`), // same map, other bytes: second entry
		recOff(`["src",{"file":"a"}]`, `{"pos":3}`),  // replaces the first
		recOff(`["a-src",{"z":1,"a":2}]`, `{"pos":4}`),
		recOff(`["a-src",{"a":1}]`, `{"pos":5}`),
	)
	res := DecodeOffsets(recs, DecodeOptions{})
	recCheckCounts(t, "bad", res.Records, res.Problems)
	want := []int64{1, 2, 3, 4, 5, 6, 7}
	if len(res.Problems) != len(want) {
		t.Fatalf("problems %+v", res.Problems)
	}
	for i, p := range res.Problems {
		if p.Offset != want[i] || p.Reason == "" {
			t.Errorf("problem %d: %+v", i, p)
		}
	}
	if !strings.Contains(res.Problems[0].Reason, "not JSON") || !strings.Contains(res.Problems[2].Reason, "partition") {
		t.Errorf("reasons %q / %q", res.Problems[0].Reason, res.Problems[2].Reason)
	}
	var got []string
	for _, o := range res.Offsets {
		got = append(got, o.Connector+" "+string(o.Partition)+" "+string(o.Offset))
	}
	// Sorted by connector, then canonical partition text ({"a":1} < {"a":2,"z":1}),
	// then key bytes.
	wantRows := []string{
		`a-src {"a":1} {"pos":5}`,
		`a-src {"z":1,"a":2} {"pos":4}`,
		`src {"file":"a"} {"pos":2}`, // equal canonical text: ordered by exact key bytes (" " < "{")
		`src {"file":"a"} {"pos":3}`,
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Fatalf("offsets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
	only := DecodeOffsets(recs, DecodeOptions{Connector: "a-src"})
	if len(only.Offsets) != 2 || only.Records != res.Records {
		t.Fatalf("filter: %+v", only)
	}
}
