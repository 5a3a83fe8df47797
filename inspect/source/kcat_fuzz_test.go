package source

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect"
)

// referenceEnvelope reads one kcat line with encoding/json, for comparison.
// ok is false when the line is not a valid envelope.
func referenceEnvelope(line []byte) (rec inspect.Record, ok bool) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return rec, false
	}
	if len(bytes.TrimSpace(line[dec.InputOffset():])) != 0 {
		return rec, false // more text after the object
	}
	str := func(name string, nullable bool) ([]byte, bool) {
		raw, present := fields[name]
		if !present {
			return nil, false
		}
		var s *string
		if json.Unmarshal(raw, &s) != nil || (s == nil && !nullable) {
			return nil, false
		}
		if s == nil {
			return nil, true
		}
		return append([]byte{}, *s...), true
	}
	num := func(name string) (int64, bool) {
		raw, present := fields[name]
		if !present {
			return 0, false
		}
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return 0, false
		}
		v, err := strconv.ParseInt(string(n), 10, 64)
		return v, err == nil
	}
	topic, ok1 := str("topic", false)
	part, ok2 := num("partition")
	off, ok3 := num("offset")
	payload, ok4 := str("payload", true)
	if !ok1 || !ok2 || !ok3 || !ok4 || len(topic) == 0 || part < 0 || part > 1<<31-1 || off < 0 {
		return rec, false
	}
	rec = inspect.Record{Topic: string(topic), Partition: int32(part), Offset: off, Value: payload}
	if _, present := fields["ts"]; present {
		if rec.Timestamp, ok = num("ts"); !ok {
			return rec, false
		}
	}
	if _, present := fields["key"]; present {
		if rec.Key, ok = str("key", true); !ok {
			return rec, false
		}
	}
	return rec, true
}

func FuzzReadKcatLine(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(replayVectorDir, "*.jsonl"))
	if len(paths) == 0 {
		f.Fatalf("no replay dumps in %s", replayVectorDir)
	}
	for _, p := range paths[:8] {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n")[:3] {
			f.Add([]byte(line))
		}
	}
	f.Add([]byte(`{"topic":"t","partition":1,"offset":2,"key":"\ud800\u0041\ud83d\ude80","payload":null,"headers":[{"a":[1,-2.5e3,true,false,null]}]}`))
	// A repeated field whose first value has the wrong type (the last counts).
	f.Add([]byte(`{"topic":"0","partition":0,"offset":0,"ts":"","ts":0,"payload":""}`))
	f.Add([]byte(`{"topic":"t","topic":1,"partition":0,"offset":0,"payload":""}`))
	// What a snapshot cannot hold: a negative offset, a topic of bytes.
	f.Add([]byte(`{"topic":"t","partition":0,"offset":-1,"payload":""}`))
	f.Add([]byte("{\"topic\":\"\xff\",\"partition\":0,\"offset\":0,\"payload\":\"\"}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") || len(bytes.TrimSpace(line)) == 0 {
			return
		}
		d, err := ReadKcat(bytes.NewReader(line), inspect.DefaultTopicNames())
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Records)+len(d.Problems) != 1 {
			t.Fatalf("one line gave %d records and %d problems", len(d.Records), len(d.Problems))
		}
		// A record the dump holds reads the same from its snapshot: the
		// snapshot of a dump is the dump, for every command.
		if len(d.Records) == 1 {
			var snap bytes.Buffer
			if err := WriteSnapshot(&snap, d); err != nil {
				t.Fatalf("writing the snapshot: %v", err)
			}
			back, err := ReadSnapshot(&snap)
			if err != nil || len(back.Problems) != 0 || len(back.Records) != 1 {
				t.Fatalf("line %q: its snapshot reads as %v, %+v, %d records", line, err, back.Problems, len(back.Records))
			}
			if a, b := d.Records[0], back.Records[0]; a.Topic != b.Topic || a.Partition != b.Partition || a.Offset != b.Offset ||
				a.Timestamp != b.Timestamp || !bytes.Equal(a.Key, b.Key) || (a.Key == nil) != (b.Key == nil) ||
				!bytes.Equal(a.Value, b.Value) || (a.Value == nil) != (b.Value == nil) {
				t.Fatalf("line %q: the dump reads %+v, its snapshot %+v", line, a, b)
			}
		}
		// Compare with encoding/json on valid UTF-8 (encoding/json replaces
		// invalid bytes; we keep them on purpose).
		if !utf8.Valid(line) {
			return
		}
		want, ok := referenceEnvelope(bytes.TrimSpace(line))
		if ok != (len(d.Records) == 1) {
			t.Fatalf("line %q: we accept=%v (%+v), encoding/json accepts=%v", line, len(d.Records) == 1, d.Problems, ok)
		}
		if ok {
			got := d.Records[0]
			if got.Topic != want.Topic || got.Partition != want.Partition || got.Offset != want.Offset || got.Timestamp != want.Timestamp ||
				!bytes.Equal(got.Key, want.Key) || (got.Key == nil) != (want.Key == nil) ||
				!bytes.Equal(got.Value, want.Value) || (got.Value == nil) != (want.Value == nil) {
				t.Fatalf("line %q: got %+v, want %+v", line, got, want)
			}
		}
	})
}
