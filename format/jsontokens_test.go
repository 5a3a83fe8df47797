package format

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// tokenTrail is every Token and More of a walk over the text: what the
// YAML writer can see of it.
func tokenTrail(dec jsonTokens) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < 100000; i++ {
		if depth > 0 {
			fmt.Fprintf(&b, "more=%v ", dec.More())
		}
		tok, err := dec.Token()
		if err != nil {
			fmt.Fprintf(&b, "err=%v", err != nil)
			break
		}
		fmt.Fprintf(&b, "%T:%v ", tok, tok)
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			break
		}
	}
	return b.String()
}

// The scanner gives the tokens json.Decoder gives, for any valid JSON, as
// the compact form the YAML writer reads and as it was typed.
func FuzzJSONScannerIsDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,-2.5e+3,true,false,null,{}],"b":"x\"y\\","c":"\u00e9\n","d":[[],[[]]]}`,
		`"plain"`, "[\"lon\xff\x80g\",\"a\\n\xc3\"]", `0`, `-0.0e-0`, `[ 1 , 2 ]`, `{"":""}`, `"\\\\\""`, `"\ud83d\ude00 \ud800"`,
		`[` + strings.Repeat(`"`+strings.Repeat("long ", 10)+`",`, 2) + `1]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, in); err != nil {
			return
		}
		for _, text := range [][]byte{compact.Bytes(), in} {
			dec := json.NewDecoder(bytes.NewReader(text))
			dec.UseNumber()
			want := tokenTrail(dec)
			got := tokenTrail(newJSONScanner(bufio.NewReaderSize(bytes.NewReader(text), 16)))
			if got != want {
				t.Fatalf("%q\n got %s\nwant %s", text, got, want)
			}
		}
	})
}
