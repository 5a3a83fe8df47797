package source

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

func sampleDataset() *inspect.Dataset {
	return &inspect.Dataset{
		Source:    "kafka:broker-1:9092",
		TakenAtMs: 1764400000123,
		Topics:    inspect.DefaultTopicNames(),
		Isolation: "read_committed",
		Records: []inspect.Record{
			{Topic: "connect-configs", Partition: 0, Offset: 0, Timestamp: 1700000000000, Key: []byte("connector-a"), Value: []byte(`{"properties":{"name":"a","x":"<&>\u2028"}}`)},
			{Topic: "connect-configs", Partition: 0, Offset: 1, Key: []byte("connector-a"), Value: nil},
			{Topic: "connect-status", Partition: 3, Offset: 9, Key: []byte{0xff, 'k'}, Value: []byte{0xc3}},
			{Topic: "connect-offsets", Partition: 24, Offset: 7, Key: nil, Value: []byte{}},
			{Topic: "connect-offsets", Partition: 2, Offset: 8, Key: []byte{}, Value: []byte("é 🚀")},
		},
		Problems: []inspect.Problem{{Topic: "", Offset: -1, Reason: "line 3: not a JSON object"}},
		Group: &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned",
			Members: []inspect.GroupMember{{MemberID: "connect-1-x", ClientID: "connect-1", ClientHost: "/10.0.0.1",
				Metadata: []byte{0, 2, 0, 0}, Assignment: []byte{0, 2, 0xff}}}},
		SinkGroups: []inspect.SinkGroup{{Group: "connect-s3", Connector: "s3", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.SinkMember{{MemberID: "m", ClientID: "c", ClientHost: "/h", Partitions: []inspect.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}}},
			Offsets: []inspect.PartitionOffset{{Topic: "t", Partition: 0, Committed: 5, End: 9}}}},
		EndOffsets: map[string]map[int32]int64{"connect-configs": {0: 2}, "connect-status": {3: 10, 0: 0}},
		TopicDescriptions: []inspect.TopicDescription{
			{Name: "connect-configs", Exists: true, Partitions: 1, ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact"}},
			{Name: "connect-status", Exists: true, Partitions: 5, ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact", "min.insync.replicas": "2"}},
		},
		BrokerConfigs: map[string]string{"group.max.session.timeout.ms": "1800000"},
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	d := sampleDataset()
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, d); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{`"snapshot": 1,`, `"key_base64":"/2s="`, `"value":null`, `"key":null`, `"isolation": "read_committed"`} {
		if !strings.Contains(text, want) {
			t.Errorf("snapshot lacks %s:\n%s", want, text)
		}
	}
	got, err := ReadSnapshot(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("round trip changed the dataset:\n got %+v\nwant %+v", got, d)
	}
	// Nil and empty keep their difference.
	if got.Records[3].Key != nil || got.Records[3].Value == nil || got.Records[4].Key == nil || got.Records[1].Value != nil {
		t.Errorf("null/empty lost: %+v", got.Records)
	}
	// Writing again gives the same bytes.
	var again bytes.Buffer
	if err := WriteSnapshot(&again, got); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	_ = WriteSnapshot(&first, d)
	if first.String() != again.String() {
		t.Error("writing is not deterministic")
	}
}

func TestSnapshotEmptyDataset(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, &inspect.Dataset{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"taken_at_ms": null`, `"group": null`, `"records": []`, `"sink_groups": []`, `"end_offsets": []`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("lacks %s:\n%s", want, buf.String())
		}
	}
	d, err := ReadSnapshot(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d.Group != nil || len(d.Records) != 0 || d.EndOffsets != nil {
		t.Errorf("got %+v", d)
	}
	if err := WriteSnapshot(&buf, nil); err == nil {
		t.Error("nil dataset accepted")
	}
}

func TestReadSnapshotErrors(t *testing.T) {
	cases := map[string]string{
		`{"snapshot": 2, "records": []}`:                "snapshot version 2 is not supported: this build of connectscope reads snapshot version 1",
		`{"snapshot": 7, "records": {"new": "layout"}}`: "snapshot version 7 is not supported",
		`{"records": []}`:                               `no "snapshot" version field`,
		`{"snapshot": "one"}`:                           `field "snapshot"`,
		`[1, 2]`:                                        "not a JSON object",
		`{"snapshot": 1, "records": [`:                  `field "records"`,
	}
	for in, want := range cases {
		_, err := ReadSnapshot(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadSnapshot(%s) = %v, want an error saying %q", in, err, want)
		}
	}
	// Unknown fields of the same version are skipped.
	d, err := ReadSnapshot(strings.NewReader(`{"future_field": {"a": [1]}, "snapshot": 1, "records": [{"topic": "t", "key": "k", "value": "v"}]}`))
	if err != nil || len(d.Records) != 1 || string(d.Records[0].Value) != "v" {
		t.Errorf("got %+v, %v", d, err)
	}
}

// TestSnapshotOfKcatDumps: every public replay dump survives kcat → snapshot → read unchanged.
func TestSnapshotOfKcatDumps(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(replayVectorDir, "*.jsonl"))
	if len(paths) == 0 {
		t.Fatalf("no replay dumps in %s", replayVectorDir)
	}
	for _, p := range paths {
		d, err := LoadFile(p, inspect.DefaultTopicNames())
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSnapshot(&buf, d); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSnapshot(&buf)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(back.Records, d.Records) || back.Source != d.Source || back.Topics != d.Topics {
			t.Errorf("%s: snapshot changed the dataset", p)
		}
	}
}

// TestSnapshotCarriesNoTerminalRunes: a connector named with a C1 control
// (U+009B is CSI on many terminals), a bidi mark or DEL, in a record, a
// group, a sink group and a topic description, reaches the file as JSON
// escapes, so `cat` of a snapshot cannot drive a terminal, and reads back
// as the same dataset. Written by encoding/json alone, the file holds them
// raw.
func TestSnapshotCarriesNoTerminalRunes(t *testing.T) {
	name := "evil\u009b2J\u202eabc\x7f\u2066"
	d := sampleDataset()
	d.Records = append(d.Records, inspect.Record{Topic: "connect-configs", Partition: 0, Offset: 2,
		Key: []byte("connector-" + name), Value: []byte(`{"properties":{"name":"` + name + `"}}`)})
	d.Group.Members[0].ClientID = name
	d.SinkGroups[0].Connector = name
	d.TopicDescriptions[0].Configs[name] = name
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, d); err != nil {
		t.Fatal(err)
	}
	for _, r := range buf.String() {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("snapshot holds %U raw", r)
		}
	}
	got, err := ReadSnapshot(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("round trip changed the dataset:\n got %+v\nwant %+v", got, d)
	}
}
