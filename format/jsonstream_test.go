package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

type streamInner struct {
	Name  string   `json:"name"`
	Count *int64   `json:"count"`
	Tags  []string `json:"tags"`
	skip  int
}

type streamEmbedded struct{ Extra int }

type streamText struct{ v string }

func (t streamText) MarshalText() ([]byte, error) { return []byte("<" + t.v + ">"), nil }

type streamOuter struct {
	Title    string            `json:"title"`
	Items    []streamInner     `json:"items"`
	Empty    []streamInner     `json:"empty"`
	Nil      []streamInner     `json:"nil"`
	Ptr      *streamInner      `json:"ptr"`
	NilPtr   *streamInner      `json:"nil_ptr"`
	Labels   map[string]string `json:"labels"`
	Any      any               `json:"any"`
	Bytes    []byte            `json:"bytes"`
	Omit     string            `json:"omit,omitempty"`
	Hidden   string            `json:"-"`
	Untagged float64
	Text     streamText         `json:"text"`
	Texts    []streamText       `json:"texts"`
	Raw      json.RawMessage    `json:"raw"`
	When     time.Time          `json:"when"`
	Nested   [][]int            `json:"nested"`
	Embeds   []streamWithEmbed  `json:"embeds"`
	NoFields struct{}           `json:"no_fields"`
	ByKey    map[string][]int64 `json:"by_key"`
}

type streamWithEmbed struct {
	streamEmbedded
	Own string `json:"own"`
}

type streamDeep struct {
	streamWithEmbed
	streamEmbedded2
	Last []int `json:"last"`
}

type streamEmbedded2 struct {
	B string `json:"b"`
}

type streamConflict struct {
	streamEmbedded
	Extra int `json:"Extra"` // the embedded field's name: the outer one wins
}

type streamPtrEmbed struct {
	*streamEmbedded
	Own string `json:"own"`
}

type streamTaggedEmbed struct {
	streamEmbedded `json:"inner"`
}

// TestStreamJSONPromotesEmbeds: a struct that embeds another is walked, its
// promoted fields in place, not handed to encoding/json whole (a plan result
// embeds its head; whole, a 1,000-worker plan was held in memory), and the
// embeds the walk leaves to encoding/json still come out the same.
func TestStreamJSONPromotesEmbeds(t *testing.T) {
	for _, v := range []any{streamWithEmbed{}, streamDeep{}} {
		if _, ok := structFields(reflect.TypeOf(v)); !ok {
			t.Errorf("%T is written whole by encoding/json, not walked", v)
		}
	}
	for _, v := range []any{streamConflict{}, streamPtrEmbed{}, streamTaggedEmbed{}} {
		if _, ok := structFields(reflect.TypeOf(v)); ok {
			t.Errorf("%T is walked, though encoding/json's own rules decide it", v)
		}
	}
	deep := streamDeep{streamWithEmbed{streamEmbedded{1}, "own"}, streamEmbedded2{"<b>"}, []int{1, 2}}
	for i, v := range []any{deep, []streamDeep{deep, {}}, streamConflict{streamEmbedded{1}, 2},
		streamPtrEmbed{&streamEmbedded{5}, "o"}, streamPtrEmbed{}, streamTaggedEmbed{streamEmbedded{7}}} {
		checkStream(t, fmt.Sprint("embed ", i), v)
	}
}

func TestStreamJSONMatchesEncoder(t *testing.T) {
	n := int64(-42)
	values := []any{
		nil, 1, "x", []int{}, []int(nil), map[string]int{}, struct{}{},
		streamOuter{},
		&streamOuter{
			Title: "a <b> & \"c\"\n\t\u2028 é \x01",
			Items: []streamInner{{Name: "one", Count: &n, Tags: []string{"x", "y"}}, {Name: "", Tags: []string{}}},
			Empty: []streamInner{}, Ptr: &streamInner{Name: "p"},
			Labels: map[string]string{"b": "2", "a": "<1>"}, Any: map[string]any{"k": []any{1.5, "v", nil, map[string]any{}}},
			Bytes: []byte("bytes"), Omit: "", Hidden: "h", Untagged: 1e21,
			Text: streamText{"t"}, Texts: []streamText{{"u"}}, Raw: json.RawMessage(`{"r":[1,2]}`),
			When: time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC), Nested: [][]int{{}, {1, 2}, nil},
			Embeds: []streamWithEmbed{{streamEmbedded{3}, "o"}}, ByKey: map[string][]int64{"z": {1}, "y": nil},
		},
		[]any{[]any{}, map[string]any{"a": []any{map[string]any{}}}},
		[]any{"<a&b>", "tab\t", "q\"", `back\slash`, "\u007f", "ü", uint8(7), int8(-3), true, false, uint64(1 << 63), -1.5},
		[]streamInner{{Name: "<a&b> 'x' ~"}, {Name: "\x00\xff"}},
	}
	for i, v := range values {
		checkStream(t, fmt.Sprint(i), v)
	}
}

func checkStream(t *testing.T, name string, v any) {
	t.Helper()
	want, err := marshalJSON(v, true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var got bytes.Buffer
	if err := streamJSON(&got, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.String() != string(want) {
		t.Errorf("%s: streamed\n%s\nencoding/json\n%s", name, got.String(), want)
	}
	// The compact form the YAML writer reads.
	want, err = marshalJSON(v, false)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got.Reset()
	if err := streamJSONForm(&got, v, false); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.String() != string(want) {
		t.Errorf("%s: streamed compact\n%s\nencoding/json\n%s", name, got.String(), want)
	}
	// -o jsonl: v and its copies one a line, each as encoding/json gives it.
	got.Reset()
	if err := streamJSONLines(&got, []any{v, v, &v}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if lines := string(want) + string(want) + string(want); got.String() != lines {
		t.Errorf("%s: streamed lines\n%s\nencoding/json\n%s", name, got.String(), lines)
	}
}

// FuzzStreamJSON: any JSON document, decoded as encoding/json decodes into
// any, streams to the same text encoding/json writes.
func FuzzStreamJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `null`, `{"a":[1,{"b":[]},[[]]],"c":"<&>"}`, `[{"x":null,"y":[true,false]}]`, `"\u2028"`, `1e400`, strings.Repeat("[", 50) + strings.Repeat("]", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		checkStream(t, "fuzz", v)
		type wrap struct {
			V    any   `json:"v"`
			List []any `json:"list"`
		}
		checkStream(t, "fuzz wrapped", wrap{V: v, List: []any{v, v}})
	})
}
