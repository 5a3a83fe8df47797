package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// decoderInput is jqInput as it was: the JSON form marshalled whole and
// decoded by encoding/json into an any, numbers as json.Number.
func decoderInput(t *testing.T, v any) (any, bool) {
	t.Helper()
	b, err := marshalJSON(v, false)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out, true
}

// jqInput builds from tokens what encoding/json's Decoder builds, for any
// JSON value and for a typed result.
func FuzzJQInputIsDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,-2.5e+3,true,false,null,{},[]],"b":"x\"y\\","c":{"d":{"e":[[],[[]]]}}}`,
		`[]`, `{}`, `null`, `"s"`, `12345678901234567890123`, `{"a":1,"a":2}`, `[{"":""},"\u2028"]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		if json.Unmarshal(in, &v) != nil {
			return
		}
		for _, result := range []any{v, ptrSample()} {
			want, ok := decoderInput(t, result)
			if !ok {
				continue
			}
			got, err := jqInput(context.Background(), result)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s\n got %#v\nwant %#v", in, got, want)
			}
		}
	})
}

// Ctrl-C ends the building of a large input at once, with the context's
// error, rather than after the whole JSON form.
func TestJQInputStopsWhenCancelled(t *testing.T) {
	big := bigSample()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := jqInput(ctx, big)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := jqInput(context.Background(), big); err != nil {
		t.Fatalf("not cancelled: %v", err)
	}
}
