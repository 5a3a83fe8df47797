package store

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func TestSplitTopics(t *testing.T) {
	names := inspect.TopicNames{Config: "cfg", Offset: "off", Status: "st"}
	recs := []inspect.Record{
		{Topic: "cfg", Key: []byte("anything"), Offset: 0},           // by topic name
		{Topic: "st", Key: []byte("connector-x"), Offset: 1},         // by topic name, key ignored
		{Topic: "", Key: []byte("status-task-a-0"), Offset: 2},       // by key
		{Topic: "other", Key: []byte("session-key"), Offset: 3},      // by key
		{Topic: "other", Key: []byte(`["src",{"f":1}]`), Offset: 4},  // by key
		{Topic: "other", Key: []byte("tasks-fencing-a"), Offset: 5},  // by key
		{Topic: "other", Key: []byte("random"), Offset: 6},           // unknown
		{Topic: "off", Key: nil, Offset: 7},                          // by topic name
		{Topic: "other", Key: nil, Offset: 8},                        // unknown
		{Topic: "cfg", Key: []byte("connector-b"), Offset: 9},        // order kept
		{Topic: "", Key: []byte("restart-connector-a"), Offset: 10},  // by key
		{Topic: "", Key: []byte("logger-cluster-org.a"), Offset: 11}, // by key
	}
	config, status, offsets, unknown := SplitTopics(recs, names)
	offs := func(rs []inspect.Record) []int64 {
		var out []int64
		for _, r := range rs {
			out = append(out, r.Offset)
		}
		return out
	}
	check := func(what string, got []inspect.Record, want ...int64) {
		t.Helper()
		g := offs(got)
		if len(g) != len(want) {
			t.Fatalf("%s: %v, want %v", what, g, want)
		}
		for i := range g {
			if g[i] != want[i] {
				t.Fatalf("%s: %v, want %v", what, g, want)
			}
		}
	}
	check("config", config, 0, 3, 5, 9, 10, 11)
	check("status", status, 1, 2)
	check("offsets", offsets, 4, 7)
	check("unknown", unknown, 6, 8)
	ps := UnclassifiedProblems(unknown)
	if len(ps) != 2 || ps[0].Offset != 6 || ps[0].Reason == "" || ps[0].Key != "random" {
		t.Fatalf("problems %+v", ps)
	}
}
