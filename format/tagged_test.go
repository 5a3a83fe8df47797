package format

import (
	"bytes"
	"encoding/json"
	"testing"
)

type taggedTestItem struct {
	Name  string            `json:"name"`
	Note  *string           `json:"note"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

type taggedTestEmpty struct {
	Hidden string `json:"-"`
}

// A tagged item has the bytes of the struct it replaces (the key field with
// the item embedded), HTML escaped or not, on one line or indented.
func TestTaggedBytesAsEmbedded(t *testing.T) {
	note := "a <b> & \u2028 \"q\"\n"
	items := []taggedTestItem{{Name: "w1:8083"}, {Name: "</script>", Note: &note, Attrs: map[string]string{"z": "1", "a": "<"}}}
	type embedded struct {
		Kind string `json:"kind"`
		taggedTestItem
	}
	type embeddedEmpty struct {
		Kind string `json:"kind"`
		taggedTestEmpty
	}
	want := []any{embedded{"task", items[0]}, embedded{"task", items[1]}, embeddedEmpty{"task", taggedTestEmpty{"x"}}}
	got := append(Tagged("kind", "task", items), Tagged("kind", "task", []taggedTestEmpty{{"x"}})...)
	for i := range want {
		for _, html := range []bool{false, true} {
			for _, indent := range []string{"", "  "} {
				if w, g := encodeWith(t, want[i], html, indent), encodeWith(t, got[i], html, indent); w != g {
					t.Errorf("item %d (html %v, indent %q):\n got %s\nwant %s", i, html, indent, g, w)
				}
			}
		}
	}
	if _, err := json.Marshal(Tagged("kind", "n", []int{1})[0]); err == nil {
		t.Error("a number tagged: no error")
	}
}

func encodeWith(t *testing.T, v any, html bool, indent string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
