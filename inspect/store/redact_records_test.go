package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func TestRedactDatasetForFiles(t *testing.T) {
	topics := inspect.TopicNames{Config: "cfg", Offset: "off", Status: "st"}
	rec := func(topic, key, value string) inspect.Record {
		return inspect.Record{Topic: topic, Key: []byte(key), Value: []byte(value)}
	}
	ds := &inspect.Dataset{Topics: topics, Records: []inspect.Record{
		rec("cfg", "session-key", `{"key":"c2VjcmV0LWtleS1tYXRlcmlhbA==","algorithm":"HmacSHA256","creation-timestamp":5}`),
		rec("cfg", "connector-db", `{"properties":{"connection.url":"jdbc:postgresql://u:UrlPw@h/db","connection.password":"Pw1","tasks.max":"1","batch":3}}`),
		rec("cfg", "task-db-0", `{"properties":{"connection.password":"Pw1","name":"db"}}`),
		rec("cfg", "connector-broken", `not json password=Pw2`),
		rec("cfg", "connector-cut", `{"properties":{"connection.password":"Pw3","db.url":"jdbc:x://u:Pw4@h","secret.token":"Pw5`),
		rec("cfg", "session-key", `{"key":"bWF0ZXJpYWwtY3V0","algorithm":"HmacSHA256"`),
		rec("st", "status-task-db-0", `{"state":"FAILED","trace":"cannot reach jdbc:postgresql://u:TracePw@h/db","worker_id":"w1","generation":2}`),
	}, BrokerConfigs: map[string]string{"ssl.keystore.password": "BrokerPw"}}
	red := RedactDataset(ds, false)
	var all strings.Builder
	for _, r := range red.Records {
		all.Write(r.Value)
		all.WriteString("\n")
	}
	// Undecodable records too: a truncated one keeps its shape, its
	// secrets go.
	for _, secret := range []string{"c2VjcmV0LWtleS1tYXRlcmlhbA", "UrlPw", "Pw1", "TracePw", "Pw2", "Pw3", "Pw4", "Pw5", "bWF0ZXJpYWwtY3V0"} {
		if strings.Contains(all.String(), secret) {
			t.Errorf("%q survives:\n%s", secret, all.String())
		}
	}
	if red.BrokerConfigs["ssl.keystore.password"] != Redacted {
		t.Errorf("broker config: %q", red.BrokerConfigs["ssl.keystore.password"])
	}
	if string(ds.Records[1].Value) == string(red.Records[1].Value) {
		t.Error("input dataset changed or nothing redacted")
	}
	// What was redacted still decodes: the same connectors, tasks and key.
	cfg := DecodeConfigs(red.Records[:3], DecodeOptions{})
	if cfg.SessionKey == nil || cfg.SessionKey.Algorithm != "HmacSHA256" || cfg.SessionKey.CreatedAtMs != 5 {
		t.Errorf("session key after redaction: %+v", cfg.SessionKey)
	}
	if len(cfg.Connectors) != 1 || cfg.Connectors[0].Config["tasks.max"] != "1" {
		t.Errorf("connectors after redaction: %+v", cfg.Connectors)
	}
	if got := string(red.Records[4].Value); got != `{"properties":{"connection.password":"[redacted]","db.url":"jdbc:x://u:[redacted]@h","secret.token":"[redacted]` {
		t.Errorf("truncated connector record redacted as %s", got)
	}
	st := DecodeStatus(red.Records[6:], DecodeOptions{})
	if len(st.Tasks) != 1 || st.Tasks[0].State != "FAILED" {
		t.Errorf("status after redaction: %+v", st.Tasks)
	}
	// --show-secrets keeps config values, never the session key.
	shown := RedactDataset(ds, true)
	if !strings.Contains(string(shown.Records[1].Value), "Pw1") {
		t.Error("--show-secrets redacted a config value")
	}
	if strings.Contains(string(shown.Records[0].Value), "c2VjcmV0") || strings.Contains(string(shown.Records[5].Value), "bWF0ZXJp") {
		t.Error("--show-secrets kept the session key")
	}
}

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
