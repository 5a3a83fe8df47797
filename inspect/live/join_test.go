package live

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// segmented lays partitions out as fetchAll does: one backing array, a
// segment per partition sized by its offset range (here: reserve each).
func segmented(names inspect.TopicNames, parts map[string][][]inspect.Record, reserve int) *fetched {
	f := &fetched{}
	total := 0
	for _, t := range []string{names.Config, names.Offset, names.Status} {
		total += len(parts[t]) * reserve
	}
	f.backing = make([]inspect.Record, total)
	at := 0
	for _, t := range []string{names.Config, names.Offset, names.Status} {
		for i, p := range parts[t] {
			seg := f.backing[at : at : at+reserve]
			seg = append(seg, p...)
			f.parts = append(f.parts, &cursor{partRange: partRange{topic: t, partition: int32(i)}, recs: seg, reserve: reserve})
			at += reserve
		}
	}
	return f
}

func rec(topic string, part int32, off, ts int64, key string, tomb bool) inspect.Record {
	r := inspect.Record{Topic: topic, Partition: part, Offset: off, Timestamp: ts, Key: []byte(key)}
	if !tomb {
		r.Value = []byte("{}")
	}
	return r
}

func order(recs []inspect.Record) string {
	s := ""
	for _, r := range recs {
		s += fmt.Sprintf("%s/%d@%d ", r.Topic[:1], r.Partition, r.Offset)
	}
	return s
}

func TestJoinTopics(t *testing.T) {
	n := inspect.TopicNames{Config: "c", Offset: "o", Status: "s"}
	status := [][]inspect.Record{
		{rec("s", 0, 0, 30, "status-task-a-0", false), rec("s", 0, 1, 10, "status-task-a-0", false)}, // clock went back: keep log order
		{rec("s", 1, 0, 20, "status-connector-a", true), rec("s", 1, 1, 40, "status-task-b-0", false)},
		{rec("s", 2, 0, 20, "status-task-c-0", false)},
	}
	parts := map[string][][]inspect.Record{
		"c": {{rec("c", 0, 0, 99, "connector-a", false)}},
		"o": {{rec("o", 0, 5, 1, `["a",{}]`, false)}, {}, {rec("o", 2, 0, 0, `["b",{}]`, false), rec("o", 2, 1, 0, `["b",{}]`, false)}},
		"s": status,
	}
	// Gaps: each partition reserved 4 slots but holds fewer, as after compaction.
	got := order(joinTopics(segmented(n, parts, 4), n))
	want := "c/0@0 o/0@5 o/2@0 o/2@1 s/1@0 s/2@0 s/0@0 s/0@1 s/1@1 "
	if got != want {
		t.Errorf("with a connector tombstone:\n got %s\nwant %s", got, want)
	}
	// Without a connector tombstone the partitions are concatenated.
	status[1][0].Value = []byte("{}")
	got = order(joinTopics(segmented(n, parts, 4), n))
	want = "c/0@0 o/0@5 o/2@0 o/2@1 s/0@0 s/0@1 s/1@0 s/1@1 s/2@0 "
	if got != want {
		t.Errorf("without:\n got %s\nwant %s", got, want)
	}
	// A segment that outgrew its reservation is assembled afresh, same order.
	status[1][0].Value = nil
	f := segmented(n, parts, 1) // partitions of 2 records spill out of a reserve of 1
	got = order(joinTopics(f, n))
	if want := "c/0@0 o/0@5 o/2@0 o/2@1 s/1@0 s/2@0 s/0@0 s/0@1 s/1@1 "; got != want {
		t.Errorf("outgrown:\n got %s\nwant %s", got, want)
	}
}

func TestPermuteInPlace(t *testing.T) {
	a := []inspect.Record{{Offset: 0}, {Offset: 1}, {Offset: 2}, {Offset: 3}, {Offset: 4}}
	permuteInPlace(a, []int32{3, 0, 4, 1, 2})
	got := ""
	for _, r := range a {
		got += fmt.Sprint(r.Offset)
	}
	if got != "30412" {
		t.Errorf("got %s", got)
	}
}

func TestEstimateRecords(t *testing.T) {
	for _, tc := range []struct {
		start, next, end int64
		got, want        int
	}{
		{0, 100, 1000, 100, 1000},     // dense: 100 + 900*1.05 + 16, capped at the offsets left
		{0, 1000, 1000000, 10, 10515}, // compacted, 10 per 1000 offsets: 10 + 9990*1.05 + 16
		{0, 50, 50, 50, 50},           // complete after one answer
		{0, 10, 20, 10, 20},           // never more than the offsets left
		{5, 5, 9, 0, 0},               // no progress yet
	} {
		c := &cursor{partRange: partRange{start: tc.start, end: tc.end}, next: tc.next, recs: make([]inspect.Record, tc.got)}
		if got := estimateRecords(c); got != tc.want {
			t.Errorf("%+v: %d", tc, got)
		}
	}
}
