package store

import (
	"fmt"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// The topic-status fast path must agree with the encoding/json path on
// everything it accepts, and hand everything unusual to it.
func TestTopicStatusFastPath(t *testing.T) {
	accept := []string{
		`{"topic":{"name":"orders","connector":"orders-sink","task":0,"discoverTimestamp":1700000000123}}`,
		` { "topic" : { "discoverTimestamp" : -5 , "task" : 2147483648 , "connector" : "c" , "name" : "t" , "extra" : null } , "x" : 1.5 } `,
	}
	refuse := []string{
		`{"topic":{"name":"or\"ders","connector":"c","task":0,"discoverTimestamp":1}}`,     // escape
		`{"topic":{"name":"ü","connector":"c","task":0,"discoverTimestamp":1}}`,            // non-ASCII
		`{"topic":{"name":"a","name":"b","connector":"c","task":0,"discoverTimestamp":1}}`, // duplicate member
		`{"topic":{"name":"a","connector":"c","task":0,"discoverTimestamp":1,"x":{}}}`,     // nested extra
		`{"topic":{"name":"a","connector":"c","task":0}}`,                                  // missing member
		`{"topic":{"name":"a","connector":"c","task":1.0,"discoverTimestamp":1}}`,          // not an integer
		`{"topic":{"name":"a","connector":"c","task":0,"discoverTimestamp":1}} x`,          // trailing text
		`{"topic":{"name":"a","connector":"c","task":0,"discoverTimestamp":1},"topic":{}}`, // duplicate topic
		`{}`, `[]`, ``, `{"topic":null}`,
	}
	for _, v := range accept {
		fast, ok := scanTopicStatusValue([]byte(v))
		if !ok {
			t.Errorf("fast path refused %s", v)
			continue
		}
		slow, reason := parseTopicStatusValueSlow([]byte(v))
		if reason != "" || fast != slow {
			t.Errorf("%s: fast %+v, slow %+v %q", v, fast, slow, reason)
		}
	}
	for _, v := range refuse {
		if fast, ok := scanTopicStatusValue([]byte(v)); ok {
			t.Errorf("fast path accepted %s as %+v", v, fast)
		}
	}
}

func FuzzTopicStatusFastPath(f *testing.F) {
	recSeedFuzz(f, "status")
	f.Fuzz(func(t *testing.T, _, value []byte, _ bool) {
		if fast, ok := scanTopicStatusValue(value); ok {
			slow, reason := parseTopicStatusValueSlow(value)
			if reason != "" || fast != slow {
				t.Fatalf("fast path accepted %q as %+v; slow path: %+v %q", value, fast, slow, reason)
			}
		}
	})
}

// Task statuses come out in task-number order whether they are held in the
// dense slice or the map, and a tombstone removes either kind. (A key cannot
// carry a negative number: "c--1" is task 1 of connector "c-".)
func TestTaskStatusesOrder(t *testing.T) {
	var recs []inspect.Record
	for _, n := range []int{5000, 2, 2147483647, 0, 4095, 4096, 3} {
		recs = append(recs, recSt(fmt.Sprintf("status-task-c-%d", n), recRunning))
	}
	recs = append(recs, inspect.Record{Key: []byte("status-task-c-3")}, inspect.Record{Key: []byte("status-task-c-5000")})
	res := DecodeStatus(recs, DecodeOptions{})
	var got []int32
	for _, ts := range res.Tasks {
		got = append(got, ts.Task)
	}
	if want := []int32{0, 2, 4095, 4096, 2147483647}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tasks %v, want %v", got, want)
	}
}
