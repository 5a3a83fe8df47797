package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/redact"

	"github.com/connectscope/connectscope/inspect"
)

// recVectorProperties decodes a vector's value the way a test can trust:
// encoding/json into generic values, independent of the decoder under test.
func recVectorProperties(t *testing.T, v recVectorRecord) map[string]any {
	t.Helper()
	var value struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal([]byte(*v.ValueUTF8), &value); err != nil || value.Properties == nil {
		t.Fatalf("%s: value has no properties: %v", v.Name, err)
	}
	return value.Properties
}

func recConfigVector(t *testing.T, vectors []recVectorRecord, name string) recVectorRecord {
	t.Helper()
	for _, v := range vectors {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("record vector %s is missing", name)
	return recVectorRecord{}
}

// recSyntheticConnector is a minimal connector- record, so that records that
// need a configured connector (task configs, commits) have one.
func recSyntheticConnector(name string, offset int64) inspect.Record {
	return inspect.Record{Topic: "connect-configs", Offset: offset, Key: []byte("connector-" + name),
		Value: []byte(`{"properties":{"name":"` + name + `","connector.class":"X"}}`)}
}

// TestConfigRecordVectors decodes every config-topic record vector as its
// notes describe.
func TestConfigRecordVectors(t *testing.T) {
	all := recLoadRecordVectors(t)
	seen := 0
	for _, v := range all {
		if v.TopicKind != "config" {
			continue
		}
		seen++
		t.Run(v.Name, func(t *testing.T) {
			r := v.record(t, 5)
			if string(r.Key) != v.KeyUTF8 {
				t.Fatalf("key bytes %q differ from key_utf8 %q", r.Key, v.KeyUTF8)
			}
			if v.ValueUTF8 != nil && string(r.Value) != *v.ValueUTF8 {
				t.Fatalf("value bytes differ from value_utf8")
			}
			// Alone, every vector decodes without problems.
			alone := DecodeConfigs([]inspect.Record{r}, DecodeOptions{ShowSecrets: true})
			recCheckCounts(t, v.Name, alone.Records, alone.Problems)
			if len(alone.Problems) != 0 {
				t.Fatalf("problems: %+v", alone.Problems)
			}
			if v.ValueUTF8 == nil && alone.Records.Tombstones != 1 || v.ValueUTF8 != nil && alone.Records.Decoded != 1 {
				t.Fatalf("counts %+v", alone.Records)
			}
			recCheckConfigKind(t, all, v, r, alone)
		})
	}
	if seen != 20 {
		t.Fatalf("%d config record vectors, want 20", seen)
	}
}

func recCheckConfigKind(t *testing.T, all []recVectorRecord, v recVectorRecord, r inspect.Record, alone *ConfigsResult) {
	show := DecodeOptions{ShowSecrets: true}
	switch v.RecordKind {
	case "connector_config":
		name := strings.TrimPrefix(v.KeyUTF8, "connector-")
		if v.ValueUTF8 == nil {
			res := DecodeConfigs([]inspect.Record{recSyntheticConnector(name, 1), r}, show)
			if len(res.Connectors) != 0 {
				t.Fatalf("tombstone left %+v", res.Connectors)
			}
			return
		}
		if len(alone.Connectors) != 1 || alone.Connectors[0].Name != name {
			t.Fatalf("connectors %+v, want %q", alone.Connectors, name)
		}
		c := alone.Connectors[0]
		if c.TargetState != "STARTED" || c.TaskCount != nil || !c.Consistent || len(c.Tasks) != 0 {
			t.Fatalf("fresh connector %+v", c)
		}
		if got, want := recCanonical(t, c.Config), recCanonical(t, recVectorProperties(t, v)); !reflect.DeepEqual(got, want) {
			t.Fatalf("config %v, want %v", got, want)
		}
	case "target_state":
		name := strings.TrimPrefix(v.KeyUTF8, "target-state-")
		want := map[string]string{
			"config-target-state-started":                  "STARTED",
			"config-target-state-paused":                   "PAUSED",
			"config-target-state-stopped":                  "STOPPED",
			"config-target-state-legacy-v0":                "PAUSED",
			"config-connector-config-initial-state-target": "STOPPED",
			"config-target-state-tombstone":                "STARTED", // reverts while configured
		}[v.Name]
		if want == "" {
			t.Fatalf("no expectation for %s", v.Name)
		}
		// Before the config (KIP-980) and after it, with a PAUSED state
		// first so a tombstone visibly reverts it.
		paused := inspect.Record{Key: []byte("target-state-" + name), Value: []byte(`{"state":"PAUSED","state.v2":"PAUSED"}`)}
		before := DecodeConfigs([]inspect.Record{paused, r, recSyntheticConnector(name, 9)}, show)
		after := DecodeConfigs([]inspect.Record{recSyntheticConnector(name, 1), paused, r}, show)
		for _, res := range []*ConfigsResult{before, after} {
			if len(res.Connectors) != 1 || res.Connectors[0].TargetState != want {
				t.Fatalf("target state %+v, want %s", res.Connectors, want)
			}
		}
	case "task_config", "commit":
		name := "orders-sink"
		recs := []inspect.Record{recSyntheticConnector(name, 0)}
		for i, n := range []string{"config-task-config-0", "config-task-config-1", "config-commit"} {
			recs = append(recs, recConfigVector(t, all, n).record(t, int64(i+1)))
		}
		res := DecodeConfigs(recs, show)
		c := res.Connectors[0]
		if c.TaskCount == nil || *c.TaskCount != 2 || len(c.Tasks) != 2 || len(c.PendingTasks) != 0 || !c.Consistent {
			t.Fatalf("after commit: %+v", c)
		}
		for i, task := range c.Tasks {
			tv := recConfigVector(t, all, "config-task-config-"+string(rune('0'+i)))
			if task.ID != "orders-sink-"+string(rune('0'+i)) ||
				!reflect.DeepEqual(recCanonical(t, task.Config), recCanonical(t, recVectorProperties(t, tv))) {
				t.Fatalf("task %d: %+v", i, task)
			}
		}
		if v.RecordKind == "task_config" {
			pending := DecodeConfigs([]inspect.Record{recSyntheticConnector(name, 0), r}, show)
			id := strings.TrimPrefix(v.KeyUTF8, "task-")
			if p := pending.Connectors[0].PendingTasks; len(p) != 1 || p[0] != id {
				t.Fatalf("pending %v, want [%s]", p, id)
			}
		}
		if v.Name == "config-commit-zero-tasks" {
			res := DecodeConfigs([]inspect.Record{recSyntheticConnector(name, 0), r}, show)
			c := res.Connectors[0]
			if c.TaskCount == nil || *c.TaskCount != 0 || len(c.Tasks) != 0 || !c.Consistent {
				t.Fatalf("zero tasks: %+v", c)
			}
		}
	case "session_key":
		k := alone.SessionKey
		if k == nil || k.Algorithm != "HmacSHA256" || k.CreatedAtMs != 1700000000000 || k.Key != redact.Placeholder {
			t.Fatalf("session key %+v", k)
		}
	case "task_count":
		if got := alone.TaskCountRecords; len(got) != 1 || got["orders-source"] != 3 {
			t.Fatalf("task count records %v", got)
		}
	case "restart_request":
		var want struct {
			IncludeTasks bool `json:"include-tasks"`
			OnlyFailed   bool `json:"only-failed"`
		}
		if err := json.Unmarshal([]byte(*v.ValueUTF8), &want); err != nil {
			t.Fatal(err)
		}
		exp := []RestartRequest{{Connector: "orders-sink", IncludeTasks: want.IncludeTasks, OnlyFailed: want.OnlyFailed, Offset: 5}}
		if !reflect.DeepEqual(alone.RestartRequests, exp) {
			t.Fatalf("restart requests %+v, want %+v", alone.RestartRequests, exp)
		}
	case "logger_level":
		if alone.LoggerLevels["org.apache.kafka.connect"] != "DEBUG" {
			t.Fatalf("logger levels %v", alone.LoggerLevels)
		}
	default:
		t.Fatalf("unknown record_kind %q", v.RecordKind)
	}
}

// TestConfigEscapingVector: non-ASCII name, null property, escapes and a
// surrogate-pair emoji come out as Kafka holds them.
func TestConfigEscapingVector(t *testing.T) {
	v := recConfigVector(t, recLoadRecordVectors(t), "config-connector-config-escaping")
	res := DecodeConfigs([]inspect.Record{v.record(t, 0)}, DecodeOptions{})
	c := res.Connectors[0]
	if c.Name != "wéird \"name\"/ü" {
		t.Fatalf("name %q", c.Name)
	}
	if got, ok := c.Config["tab\tand\nnewline"].(string); !ok || got != "emoji \U0001F680 and control \x01" {
		t.Fatalf("escaped value %q", got)
	}
	if v, ok := c.Config["nullable"]; !ok || v != nil {
		t.Fatalf("null property %#v", v)
	}
	b, _ := json.Marshal(c.Config)
	if !strings.Contains(string(b), `"nullable":null`) {
		t.Fatalf("null property not written as null: %s", b)
	}
}
