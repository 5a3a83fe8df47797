package store

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// recEncoderJSON is what format's -o json printed before OffsetsResult wrote
// its own JSON: encoding/json, two-space indent, no HTML escaping.
func recEncoderJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return buf.Bytes()
}

func recSameOffsetsJSON(t testing.TB, name string, res *OffsetsResult) {
	t.Helper()
	var got bytes.Buffer
	if err := res.WriteJSON(&got); err != nil {
		t.Fatalf("%s: WriteJSON: %v", name, err)
	}
	if want := recEncoderJSON(t, res); !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("%s: WriteJSON differs from encoding/json\ngot:\n%s\nwant:\n%s", name, got.Bytes(), want)
	}
}

// TestOffsetsWriteJSONMatchesEncoder: the hand-written -o json output is
// byte for byte encoding/json's, on odd and ordinary records and on results
// built by hand (nil lists and raw values, strings needing escapes).
func TestOffsetsWriteJSONMatchesEncoder(t *testing.T) {
	odd := recNumbered(append([]inspect.Record{}, recOffsetOddities...)...)
	recSameOffsetsJSON(t, "oddities", DecodeOffsets(odd, DecodeOptions{}))
	recSameOffsetsJSON(t, "filtered", DecodeOffsets(odd, DecodeOptions{Connector: "s\"rc"}))
	recSameOffsetsJSON(t, "load", DecodeOffsets(recOffsetsLoad(5_000), DecodeOptions{}))
	recSameOffsetsJSON(t, "empty", DecodeOffsets(nil, DecodeOptions{}))
	recSameOffsetsJSON(t, "zero", &OffsetsResult{})
	recSameOffsetsJSON(t, "by hand", &OffsetsResult{Topic: "t<\u2028\x7f\xff>", Offsets: []SourceOffset{
		{Connector: "c\n\"<&>\u2029", Partition: nil, Offset: json.RawMessage(" [ 1 , { } , [ ] , {\"a\" : \"\\\"]\" } ] ")},
	}, Problems: []inspect.Problem{{Key: "k\t", Reason: "r"}}})

	var out bytes.Buffer
	bad := &OffsetsResult{Offsets: []SourceOffset{{Partition: json.RawMessage(`{"a":`)}}}
	if err := bad.WriteJSON(&out); err == nil {
		t.Fatal("invalid raw JSON written without an error")
	}
}
