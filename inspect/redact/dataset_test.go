package redact_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
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

// A member that advertises user:password@ or a query in its REST URL: the
// file keeps its metadata and assignment but for that URL, which loses them
// as every view shows it; --show-secrets keeps the bytes as they were.
func TestRedactDatasetMemberURLs(t *testing.T) {
	url := "http://admin:UrlPw9@w1:8083/?token=QueryTok9#f"
	owned := &protocol.Assignment{Version: 1, Leader: "m1", LeaderURL: url, ConfigOffset: 42,
		Assigned: protocol.EntriesFor([]string{"c"}, nil), Revoked: []protocol.ConnectorEntry{}, DelayMs: 7}
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: url, ConfigOffset: 42, Allocation: owned})
	if err != nil {
		t.Fatal(err)
	}
	asg, err := protocol.EncodeAssignment(owned)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: "http://w2:8083/", ConfigOffset: 42})
	if err != nil {
		t.Fatal(err)
	}
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Group: &inspect.GroupDescription{Group: "g", Members: []inspect.GroupMember{
		{MemberID: "m1", Metadata: meta, Assignment: asg},
		{MemberID: "m2", Metadata: plain},
	}}}
	red := redact.Dataset(ds, false)
	m, err := protocol.DecodeMetadata(red.Group.Members[0].Metadata)
	if err != nil || m.URL != "http://w1:8083/" || m.ConfigOffset != 42 || m.Allocation == nil ||
		m.Allocation.LeaderURL != "http://w1:8083/" || len(m.Allocation.Connectors()) != 1 {
		t.Errorf("metadata after redaction: %+v, %v", m, err)
	}
	a, err := protocol.DecodeAssignment(red.Group.Members[0].Assignment)
	if err != nil || a.LeaderURL != "http://w1:8083/" || a.Leader != "m1" || a.DelayMs != 7 || len(a.Connectors()) != 1 {
		t.Errorf("assignment after redaction: %+v, %v", a, err)
	}
	if !bytes.Equal(red.Group.Members[1].Metadata, plain) {
		t.Error("a URL with nothing to drop was rewritten")
	}
	if !bytes.Equal(ds.Group.Members[0].Metadata, meta) {
		t.Error("the input dataset changed")
	}
	shown := redact.Dataset(ds, true)
	if !bytes.Equal(shown.Group.Members[0].Metadata, meta) || !bytes.Equal(shown.Group.Members[0].Assignment, asg) {
		t.Error("--show-secrets changed the group")
	}
}
