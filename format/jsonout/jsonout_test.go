package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// encoded is s as encoding/json writes it without HTML escaping.
func encoded(s string) string {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestAppendStringIsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "a<b&c", "quote\"back\\", "tab\t", "é", "\x7f", "bad\xff", "\u2028"} {
		if got, want := string(AppendString(nil, s)), encoded(s); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendIndentedIsJSONIndent(t *testing.T) {
	src := `{"a": [1, {"b": []}, {}], "c": {"d": "x, y: {z}"}}`
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(src), "", "  "); err != nil {
		t.Fatal(err)
	}
	if got := string(AppendIndented(nil, []byte(src), 0)); got != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got, want.String())
	}
}

type failing struct{ after int }

func (f *failing) Write(p []byte) (int, error) {
	if f.after -= len(p); f.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriterKeepsFirstError(t *testing.T) {
	w := New(&failing{after: 10}, 16)
	for range 20000 {
		w.Raw("0123456789")
		w.MaybeFlush()
	}
	if err := w.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close = %v, want the write error", err)
	}
	var out bytes.Buffer
	w = New(&out, 16)
	w.String("k")
	w.Newline(1)
	if err := w.Close(); err != nil || out.String() != "\"k\"\n  " {
		t.Errorf("%q %v", out.String(), err)
	}
}
