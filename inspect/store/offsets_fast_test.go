package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// offsetsReference is the offsets replay done the plain way, with
// encoding/json on every record, as DecodeOffsets was before its fast path.
// The decoder must give exactly its result.
func offsetsReference(records []inspect.Record, opts DecodeOptions) *OffsetsResult {
	type heldOffset struct {
		SourceOffset
		canonical, key string
	}
	held := map[string]*heldOffset{}
	res := OffsetsResult{Topic: opts.Topic, Problems: []inspect.Problem{}}
	for _, r := range records {
		if res.Records.Read == 0 && res.Topic == "" {
			res.Topic = r.Topic
		}
		res.Records.Read++
		reason := ""
		switch {
		case r.Key == nil:
			reason = "record has no key"
		case r.Value == nil:
			if _, _, why := parseOffsetKey(r.Key); why != "" {
				reason = why // an invalid key is discarded, not a tombstone
			} else {
				delete(held, string(r.Key))
			}
		default:
			connector, partition, why := parseOffsetKey(r.Key)
			switch {
			case why != "":
				reason = why
			case !json.Valid(r.Value):
				reason = notJSON("offset value", r.Value) // the same words; what is tested is when
			case firstJSONByte(r.Value) != '{':
				reason = "offset value is not a JSON object"
			default:
				held[string(r.Key)] = &heldOffset{SourceOffset: SourceOffset{Connector: connector, Partition: partition,
					Offset: bytes.TrimSpace(r.Value), KafkaPartition: r.Partition, KafkaOffset: r.Offset}, key: string(r.Key)}
			}
		}
		switch {
		case reason != "":
			res.Records.Problems++
			res.Problems = append(res.Problems, recordProblem(r, reason))
		case r.Value == nil:
			res.Records.Tombstones++
		default:
			res.Records.Decoded++
		}
	}
	if res.Topic == "" {
		res.Topic = inspect.DefaultTopicNames().Offset
	}
	var kept []*heldOffset
	for _, o := range held {
		if opts.Connector == "" || opts.Connector == o.Connector {
			o.canonical = canonicalJSON(o.Partition)
			kept = append(kept, o)
		}
	}
	slices.SortFunc(kept, func(a, b *heldOffset) int {
		if c := strings.Compare(a.Connector, b.Connector); c != 0 {
			return c
		}
		if c := strings.Compare(a.canonical, b.canonical); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	res.Offsets = []SourceOffset{}
	for _, o := range kept {
		res.Offsets = append(res.Offsets, o.SourceOffset)
	}
	return &res
}

func recSameOffsets(t *testing.T, name string, records []inspect.Record, opts DecodeOptions) {
	t.Helper()
	got, want := DecodeOffsets(records, opts), offsetsReference(records, opts)
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("%s: decoder and reference differ\ngot  %s\nwant %s", name, gj, wj)
	}
}

// recOffsetOddities are records the fast paths must hand over or get right:
// white space, escapes, non-ASCII and invalid UTF-8 names, unsorted and
// duplicate partition fields, nesting, odd numbers, and bad JSON of each kind.
var recOffsetOddities = []inspect.Record{
	recOff(` [ "src" , { "file" : "a" } ] `, " {\"pos\":1}\n"),
	recOff(`["src",{"file":"a"}]`, `{"pos":2}`),
	recOff(`["s\"rc",{"file":"a"}]`, `{"pos":3}`),
	recOff(`["s\u00e9rc",{"file":"a"}]`, `{"pos":4}`),
	recOff(`["sérc",{"file":"a"}]`, `{"pos":5}`),
	recOff("[\"s\xffrc\",{\"file\":\"a\"}]", `{"pos":6}`),
	recOff(`["src",{"z":1,"a":2}]`, `{"pos":7}`),
	recOff(`["src",{"a":1,"a":2}]`, `{"pos":8}`),
	recOff(`["src",{"a":{"c":[1,2.5e3,-0,{"y":null,"x":true}],"b":"<&>"}}]`, `{"pos":[{"x":{}}]}`),
	recOff(`["src",{"a":"\u2028 é \t"}]`, `{"pos":9}`),
	recOff(`["src",{"n":1E+2,"m":1.0}]`, `{"pos":1e-7}`),
	recOff(`["src",{}]`, `{}`),
	recOff(`["",{"x":1}]`, `{"pos":10}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":01}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":1.}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":"\x"}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":"\u12G4"}`),
	recOff(`["src",{"file":"b"}]`, "{\"pos\":\"a\x01\"}"),
	recOff(`["src",{"file":"b"}]`, `{"pos":tru}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":1,}`),
	recOff(`["src",{"file":"b"}]`, `{"pos":1} {}`),
	recOff(`["src",{"file":"b"}]`, ``),
	recOff(`["src",{"file":"b"}]`, `{"`),
	recOff(`["src",{"`, `{"pos":1}`),
	recOff(`["src",{"file":"b"}]`, `  `),
	recOff(`["src",{"file":"b"}]`, `"text"`),
	recOff(`["src",{"file":"b"}]`, `{"pos":1}`),
	recOff(`["src",{"file":"b"},]`, `{"pos":1}`),
	recOff(`["src" {"file":"b"}]`, `{"pos":1}`),
	recOff(`["src",{"file":"b"}] x`, `{"pos":1}`),
	recOff(`["src",["file"]]`, `{"pos":1}`),
	recOff(`["src"]`, `{"pos":1}`),
	recOff(`[]`, `{"pos":1}`),
	recOff(``, `{"pos":1}`),
	recOff(`["src",{"file":"b"}]`, "<null>"),
	recOff(`["src",{"file":"b"}]`, `{"pos":11}`),
	recOff(`["src",{"file":"a"}]`, "<null>"),
	{Topic: "connect-offsets", Value: []byte(`{"pos":12}`)},
	{Topic: "connect-offsets"},
	recOff(strings.Repeat("[", 300)+strings.Repeat("]", 300), `{"pos":13}`),
	recOff(`["src",{"deep":`+strings.Repeat("[", 300)+strings.Repeat("]", 300)+`}]`, `{"pos":14}`),
	recOff(`["src",{"file":"c"}]`, `{"deep":`+strings.Repeat("[", 300)+strings.Repeat("]", 300)+`}`),
	recOff(`["src",{"file":"d"}]`, `{"deep":`+strings.Repeat("[", 10001)+strings.Repeat("]", 10001)+`}`),
}

// TestOffsetsMatchReference: on odd records, and on a large topic with
// tombstones, bad values and rewrites, the decoder gives exactly what the
// plain encoding/json replay gives, with and without a connector filter.
func TestOffsetsMatchReference(t *testing.T) {
	odd := recNumbered(slices.Clone(recOffsetOddities)...)
	for _, opts := range []DecodeOptions{{}, {Connector: "src"}, {Connector: "s\ufffdrc"}, {Topic: "offsets-x"}} {
		recSameOffsets(t, "oddities "+opts.Connector, odd, opts)
	}
	load := recOffsetsLoad(50_000)
	for i := range load {
		switch {
		case i%97 == 0:
			load[i].Value = nil
		case i%89 == 0:
			load[i].Value = []byte(`{"lsn":}`)
		case i%83 == 0:
			load[i].Value = []byte(` {"lsn": ` + strconv.Itoa(i) + ` } `)
		}
	}
	load = append(load, odd...)
	recSameOffsets(t, "load", load, DecodeOptions{})
	recSameOffsets(t, "load source-7", load, DecodeOptions{Connector: "source-7"})

	// Streaming: Result between Adds reflects what was added so far.
	d := NewOffsetsDecoder(DecodeOptions{})
	for i, r := range odd {
		d.Add(r)
		if got, want := d.Result(), offsetsReference(odd[:i+1], DecodeOptions{}); !reflect.DeepEqual(got, want) {
			t.Fatalf("after record %d: %+v, want %+v", i, got, want)
		}
	}
}

// TestOffsetsFastScanners checks each hand-written scanner on its own.
func TestOffsetsFastScanners(t *testing.T) {
	for _, r := range recOffsetOddities {
		for _, b := range [][]byte{r.Key, r.Value} {
			if jsonValid(b) != json.Valid(b) {
				t.Errorf("jsonValid(%q) = %v", b, jsonValid(b))
			}
		}
	}
	if _, ok := scanOffsetKey([]byte(`["orders",{"table":"orders"}]`)); !ok {
		t.Error("the usual key shape is not taken by the fast path")
	}
	if !isCanonicalJSON([]byte(`{"a":1,"b":{"c":[true,null,"x"]}}`)) || isCanonicalJSON([]byte(`{"b":1,"a":2}`)) ||
		isCanonicalJSON([]byte(`{"a":1, "b":2}`)) || isCanonicalJSON([]byte(`{"a":"\n"}`)) {
		t.Error("isCanonicalJSON misjudges")
	}
}

// FuzzOffsetsFastPath: the hand-written scanners agree with encoding/json,
// a replay of the fuzzed record among others equals the reference one, and
// its -o json text is encoding/json's.
func FuzzOffsetsFastPath(f *testing.F) {
	recSeedFuzz(f, "offset")
	for _, r := range recOffsetOddities {
		f.Add(r.Key, r.Value, r.Value == nil)
	}
	f.Fuzz(func(t *testing.T, key, value []byte, null bool) {
		for _, b := range [][]byte{key, value} {
			if jsonValid(b) != json.Valid(b) {
				t.Fatalf("jsonValid(%q) = %v, json.Valid says otherwise", b, jsonValid(b))
			}
		}
		if k, ok := scanOffsetKey(key); ok {
			connector, partition, reason := parseOffsetKey(key)
			if reason != "" || connector != string(key[k.nameStart:k.nameEnd]) ||
				!bytes.Equal(partition, key[k.partitionStart:k.partitionEnd]) {
				t.Fatalf("fast key %q: %+v; slow: %q %s %q", key, k, connector, partition, reason)
			}
		}
		for _, b := range [][]byte{key, value} {
			if json.Valid(b) && isCanonicalJSON(b) && canonicalJSON(b) != string(b) {
				t.Fatalf("%q taken as canonical, canonicalJSON gives %q", b, canonicalJSON(b))
			}
		}
		r := recFuzzRecord("connect-offsets", key, value, null)
		other := recOff(`["src",{"file":"a"}]`, `{"pos":1}`)
		recs := recNumbered(other, r, recOff(string(key), `{"pos":2}`), r, other, recOff(string(key), "<null>"), r)
		recSameOffsets(t, "fuzz", recs, DecodeOptions{})
		recSameOffsetsJSON(t, "fuzz", DecodeOffsets(recs, DecodeOptions{}))
	})
}
