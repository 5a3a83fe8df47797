package redact_test

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/inspect/store"
)

// A dataset redacted for a file keeps no secret, and what was redacted
// still decodes as the store reads it.
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
	red := redact.Dataset(ds, false)
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
	if red.BrokerConfigs["ssl.keystore.password"] != redact.Placeholder {
		t.Errorf("broker config: %q", red.BrokerConfigs["ssl.keystore.password"])
	}
	if string(ds.Records[1].Value) == string(red.Records[1].Value) {
		t.Error("input dataset changed or nothing redacted")
	}
	// What was redacted still decodes: the same connectors, tasks and key.
	cfg := store.DecodeConfigs(red.Records[:3], store.DecodeOptions{})
	if cfg.SessionKey == nil || cfg.SessionKey.Algorithm != "HmacSHA256" || cfg.SessionKey.CreatedAtMs != 5 {
		t.Errorf("session key after redaction: %+v", cfg.SessionKey)
	}
	if len(cfg.Connectors) != 1 || cfg.Connectors[0].Config["tasks.max"] != "1" {
		t.Errorf("connectors after redaction: %+v", cfg.Connectors)
	}
	if got := string(red.Records[4].Value); got != `{"properties":{"connection.password":"[redacted]","db.url":"jdbc:x://u:[redacted]@h","secret.token":"[redacted]` {
		t.Errorf("truncated connector record redacted as %s", got)
	}
	st := store.DecodeStatus(red.Records[6:], store.DecodeOptions{})
	if len(st.Tasks) != 1 || st.Tasks[0].State != "FAILED" {
		t.Errorf("status after redaction: %+v", st.Tasks)
	}
	// --show-secrets keeps config values, never the session key.
	shown := redact.Dataset(ds, true)
	if !strings.Contains(string(shown.Records[1].Value), "Pw1") {
		t.Error("--show-secrets redacted a config value")
	}
	if strings.Contains(string(shown.Records[0].Value), "c2VjcmV0") || strings.Contains(string(shown.Records[5].Value), "bWF0ZXJp") {
		t.Error("--show-secrets kept the session key")
	}
}
