package diff

import (
	"github.com/connectscope/connectscope/inspect/redact"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
)

func load(t *testing.T, path string) *inspect.Dataset {
	t.Helper()
	ds, err := source.LoadFile(path, inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestCompareSameIsEqual(t *testing.T) {
	res := Compare(load(t, examplePath), load(t, examplePath), Options{})
	if !res.Equal || res.Changes != 0 || len(res.Items()) != 0 {
		t.Fatalf("a snapshot differs from itself: %+v", res)
	}
}

func TestCompareExampleAfter(t *testing.T) {
	res := Compare(load(t, examplePath), exampleAfter(t), Options{})
	if res.Equal {
		t.Fatal("equal")
	}
	byName := map[string]ConnectorChange{}
	for _, c := range res.Connectors {
		byName[c.Name] = c
	}
	if c := byName["file-audit-sink"]; c.Change != Removed || c.TargetState == nil || *c.TargetState.Before != "STOPPED" || c.TargetState.After != nil {
		t.Errorf("file-audit-sink: %+v", c)
	}
	jdbc := byName["jdbc-orders-source"]
	if jdbc.Change != Changed || len(jdbc.Config) != 2 {
		t.Fatalf("jdbc-orders-source: %+v", jdbc)
	}
	for _, k := range jdbc.Config {
		switch k.Key {
		case "connection.password":
			if *k.Before != redact.Placeholder || *k.After != redact.Placeholder {
				t.Errorf("secret shown: %+v", k)
			}
		case "poll.interval.ms":
			if *k.Before != "5000" || *k.After != "1000" {
				t.Errorf("poll.interval.ms: %v -> %v", *k.Before, *k.After)
			}
		default:
			t.Errorf("unexpected key %s", k.Key)
		}
	}
	if _, ok := byName["s3-orders-sink"]; ok {
		t.Error("s3-orders-sink reported changed; only its commits moved")
	}
	var deb *TaskChange
	for i := range res.Tasks {
		if res.Tasks[i].ID == "debezium-inventory-0" {
			deb = &res.Tasks[i]
		}
	}
	if deb == nil || deb.State == nil || *deb.State.Before != "FAILED" || *deb.State.After != "RUNNING" ||
		deb.Worker == nil || *deb.Worker.After != "10.0.1.12:8083" {
		t.Errorf("debezium-inventory-0: %+v", deb)
	}
	var moved []string
	for _, o := range res.Owners {
		if o.Before == nil || *o.Before != "10.0.1.13:8083" || o.After != nil {
			t.Errorf("owner change %+v: only pieces of the worker that left should lose their owner", o)
		}
		moved = append(moved, o.Piece)
	}
	if !slices.Equal(moved, []string{"file-audit-sink", "jdbc-orders-source-1", "mongo-events-source", "s3-orders-sink-2"}) {
		t.Errorf("owners changed: %v", moved)
	}
	var source, sink int
	for _, o := range res.Offsets {
		switch o.Kind {
		case "source":
			source++
			if o.Connector != "jdbc-orders-source" || *o.After != `{"incrementing":48977}` {
				t.Errorf("source offset %+v", o)
			}
		case "sink":
			sink++
		}
	}
	if source != 1 || sink != 4 {
		t.Errorf("offsets moved: %d source, %d sink; want 1 and 4 (3 of s3-orders-sink, the deleted file-audit-sink's)", source, sink)
	}
	if len(res.Members) != 1 || res.Members[0] != (MemberChange{Worker: "10.0.1.13:8083", Change: Left}) {
		t.Errorf("members: %+v", res.Members)
	}
	if res.Changes != len(res.Items()) {
		t.Errorf("changes %d, items %d", res.Changes, len(res.Items()))
	}
	// Reversed, the same differences read the other way round.
	back := Compare(exampleAfter(t), load(t, examplePath), Options{})
	if back.Changes != res.Changes || back.Members[0].Change != Joined {
		t.Errorf("reversed: %d changes, members %+v", back.Changes, back.Members)
	}
}

func TestCompareShowSecrets(t *testing.T) {
	res := Compare(load(t, examplePath), exampleAfter(t), Options{ShowSecrets: true})
	for _, c := range res.Connectors {
		for _, k := range c.Config {
			if k.Key == "connection.password" && (*k.After != "rotated-in-vault" || *k.Before == redact.Placeholder) {
				t.Errorf("--show-secrets: %v -> %v", *k.Before, *k.After)
			}
		}
	}
}

// TestCompareWithoutGroupData: a side without a group or sink groups (a
// kcat dump) does not make every owner, member and commit read as gone.
func TestCompareWithoutGroupData(t *testing.T) {
	dump := load(t, examplePath)
	dump.Group, dump.SinkGroups = nil, nil
	res := Compare(load(t, examplePath), dump, Options{})
	if !res.Equal || len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "AFTER holds no Connect group") {
		t.Errorf("equal %t, notes %q, changes %d", res.Equal, res.Notes, res.Changes)
	}
	both := load(t, examplePath)
	both.Group, both.SinkGroups = nil, nil
	if res := Compare(both, dump, Options{}); !res.Equal || len(res.Notes) != 0 {
		t.Errorf("two dumps: %+v", res)
	}
}

// A credential inside a value that is not a secret key's (a JDBC URL's
// password, a bearer token) is redacted in the diff as in every other
// view; the change still counts, and --show-secrets shows both sides.
func TestCompareRedactsCredentialsInsideValues(t *testing.T) {
	side := func(pass, token string) *inspect.Dataset {
		cfg := `{"properties":{"connector.class":"X","connection.url":"jdbc:postgresql://h/db?user=a&password=` + pass +
			`&ssl=true","http.headers":"Authorization: Bearer ` + token + `"}}`
		return &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{
			{Topic: "connect-configs", Offset: 0, Key: []byte("connector-orders"), Value: []byte(cfg)},
			{Topic: "connect-configs", Offset: 1, Key: []byte("commit-orders"), Value: []byte(`{"tasks":0}`)},
		}}
	}
	before, after := side("old-pass-1", "tok-A"), side("new-pass-2", "tok-B")
	res := Compare(before, after, Options{})
	if len(res.Connectors) != 1 || len(res.Connectors[0].Config) != 2 {
		t.Fatalf("want both keys changed: %+v", res.Connectors)
	}
	for _, k := range res.Connectors[0].Config {
		for _, v := range []string{*k.Before, *k.After} {
			if strings.Contains(v, "pass-") || strings.Contains(v, "tok-") || !strings.Contains(v, redact.Placeholder) {
				t.Errorf("%s shown as %q", k.Key, v)
			}
		}
	}
	shown := Compare(before, after, Options{ShowSecrets: true})
	for _, k := range shown.Connectors[0].Config {
		if !strings.Contains(*k.Before+*k.After, "old-pass-1") && !strings.Contains(*k.Before+*k.After, "tok-A") {
			t.Errorf("--show-secrets: %s %q -> %q", k.Key, *k.Before, *k.After)
		}
	}
}
