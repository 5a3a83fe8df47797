package redact

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzRedactConfigRecord: whatever a config record holds, redaction does
// not panic and is stable; a connector record cut off anywhere (as a
// truncated dump holds it) never keeps the part of its password it still
// has, nor a session key its material.
func FuzzRedactConfigRecord(f *testing.F) {
	const record = `{"properties":{"connector.class":"x","connection.password":"S3cr3tPassw0rd","name":"db"}}`
	const session = `{"key":"bWF0ZXJpYWwtbWF0ZXJpYWw=","algorithm":"HmacSHA256","creation-timestamp":5}`
	f.Add(uint8(0), []byte(record), 60)
	f.Add(uint8(2), []byte(session), 20)
	f.Add(uint8(1), []byte(`{"properties":{"a.password":"\"x\\"`), 1000)
	f.Add(uint8(0), []byte(`{"properties":"password=Pw token=T"}`), 1000)
	f.Fuzz(func(t *testing.T, kind uint8, value []byte, cut int) {
		key := []string{"connector-db", "task-db-0", "session-key"}[int(kind)%3]
		got := redactConfigRecord(key, value, false)
		// Redacting again changes nothing. A record that only decodes once
		// redacted (a control character inside a secret's value) is
		// re-encoded the second time, in Go's key order: the same JSON.
		if again := redactConfigRecord(key, got, false); string(again) != string(got) && !sameJSON(again, got) {
			t.Fatalf("redaction is not stable: %q -> %q -> %q", value, got, again)
		}
		for _, whole := range []struct{ key, text, secret string }{
			{"connector-db", record, "S3cr3tPassw0rd"},
			{"session-key", session, "bWF0ZXJpYWwtbWF0ZXJpYWw="},
		} {
			n := cut
			if n < 0 {
				n = -n
			}
			n %= len(whole.text) + 1
			in := whole.text[:n]
			start := strings.Index(whole.text, whole.secret)
			if n-start < 3 {
				continue // too little of the secret is left to tell
			}
			left := whole.text[start:min(n, start+len(whole.secret))]
			if out := string(redactConfigRecord(whole.key, []byte(in), false)); strings.Contains(out, left) {
				t.Fatalf("%q cut at %d keeps %q: %q", whole.key, n, left, out)
			}
		}
	})
}

// sameJSON says a and b are valid JSON holding the same value.
func sameJSON(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
