package check

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// testDataset is a small sessioned cluster: w1 owns connector a and a-0, a-1;
// w2 owns b, b-0 and (again) a-1; the status topic says a-0 runs on a worker
// outside the group.
func testDataset(t *testing.T) *inspect.Dataset {
	t.Helper()
	names := inspect.DefaultTopicNames()
	member := func(id, url string, assigned []protocol.ConnectorEntry, delay int32) inspect.GroupMember {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 9})
		if err != nil {
			t.Fatal(err)
		}
		asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: "m1", LeaderURL: "http://10.0.0.1:8083/", ConfigOffset: 9, Assigned: assigned, DelayMs: delay})
		if err != nil {
			t.Fatal(err)
		}
		return inspect.GroupMember{MemberID: id, ClientID: "connect-" + strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"), Metadata: meta, Assignment: asg}
	}
	rec := func(topic, key, value string, partition int32, offset int64) inspect.Record {
		r := inspect.Record{Topic: topic, Partition: partition, Offset: offset, Key: []byte(key)}
		if value != "" {
			r.Value = []byte(value)
		}
		return r
	}
	sink := `{"properties":{"connector.class":"io.example.S3SinkConnector","topics":"orders","name":"a","consumer.override.session.timeout.ms":"3000"}}`
	return &inspect.Dataset{
		Source: "test", Topics: names,
		Records: []inspect.Record{
			rec(names.Config, "connector-a", sink, 0, 0),
			rec(names.Config, "task-a-0", `{"properties":{"task.class":"x"}}`, 0, 1),
			rec(names.Config, "task-a-1", `{"properties":{"task.class":"x"}}`, 0, 2),
			rec(names.Config, "commit-a", `{"tasks":2}`, 0, 3),
			rec(names.Config, "connector-b", `{"properties":{"connector.class":"io.example.JdbcSourceConnector","name":"b"}}`, 0, 4),
			rec(names.Config, "task-b-0", `{"properties":{"task.class":"y"}}`, 0, 5),
			rec(names.Config, "commit-b", `{"tasks":1}`, 0, 6),
			rec(names.Status, "status-task-a-0", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.9:8083","generation":4}`, 1, 0),
			rec(names.Status, "status-task-b-0", `{"state":"RUNNING","trace":null,"worker_id":"10.0.0.2:8083","generation":7}`, 1, 1),
		},
		Group: &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned", Members: []inspect.GroupMember{
			member("m1", "http://10.0.0.1:8083/", []protocol.ConnectorEntry{{Connector: "a", Tasks: []int32{-1, 0, 1}}}, 0),
			member("m2", "http://10.0.0.2:8083/", []protocol.ConnectorEntry{{Connector: "b", Tasks: []int32{-1, 0}}, {Connector: "a", Tasks: []int32{1}}}, 0),
		}},
		TopicDescriptions: []inspect.TopicDescription{
			{Name: names.Config, Exists: true, Partitions: 1, ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact", "min.insync.replicas": "2"}},
			{Name: names.Offset, Exists: true, Partitions: 25, ReplicationFactor: 1, Configs: map[string]string{"cleanup.policy": "compact"}},
			{Name: names.Status, Exists: false},
		},
		BrokerConfigs: map[string]string{"group.min.session.timeout.ms": "6000", "group.max.session.timeout.ms": "1800000"},
	}
}

func TestBalanceFromDataset(t *testing.T) {
	d := Decode(testDataset(t))
	in := d.BalanceInput()
	if len(in.Workers) != 2 || in.Workers[0].ID != "10.0.0.1:8083" || in.Protocol != "sessioned" {
		t.Fatalf("workers %+v", in.Workers)
	}
	if len(in.Configured) != 2 || in.Configured[0].Name != "a" || in.Configured[0].Tasks != 2 {
		t.Fatalf("configured %+v", in.Configured)
	}
	rep := Balance(in)
	for _, id := range []string{"B5", "B7"} {
		if !hasRule(rep.Findings, id) {
			t.Errorf("%s missing: %v", id, ruleIDs(rep.Findings))
		}
	}
	if hasRule(rep.Findings, "B9") || hasRule(rep.Findings, "B6") {
		t.Errorf("unexpected: %v", ruleIDs(rep.Findings))
	}
	if rep.Workers[0].ExpectedTasks == nil {
		t.Errorf("assignor expectation missing: %+v", rep.Workers[0])
	}
	if d.MaxTasksPerWorker() != 2 {
		t.Errorf("MaxTasksPerWorker = %d", d.MaxTasksPerWorker())
	}
}

func TestTopicsFromDataset(t *testing.T) {
	d := Decode(testDataset(t))
	in := d.TopicsInput("connect-cluster")
	rep := Topics(in)
	for _, id := range []string{"K5", "K12"} {
		if !hasRule(rep.Findings, id) {
			t.Errorf("%s missing: %v", id, ruleIDs(rep.Findings))
		}
	}
	if len(rep.Topics) != 3 || rep.Topics[2].Exists == nil || *rep.Topics[2].Exists || rep.Topics[0].Partitions == nil || *rep.Topics[0].Partitions != 1 {
		t.Errorf("topics %+v", rep.Topics)
	}
	// a-0's status was written by 10.0.0.9 (generation 4), after no member wrote in partition 1 before it.
	if hasRule(rep.Findings, "K16") {
		t.Errorf("K16 without an earlier newer generation: %v", rep.Findings)
	}
}

func TestAllFromDataset(t *testing.T) {
	d := Decode(testDataset(t))
	w := worker(t, "w1.properties", "rest.advertised.host.name=10.0.0.1\nrest.advertised.port=8083\n")
	rep, err := All(AllInput{Workers: []*workerconfig.Config{w}, Data: d, Options: Options{Group: "connect-cluster"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Checks {
		if !c.Ran {
			t.Errorf("check %s did not run: %v", c.Check, *c.Reason)
		}
	}
	// The sink connector's override (3000 ms session) is below the broker minimum: T4 from the config topic.
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "T4" && strings.Contains(f.Subject, "connector a") {
			found = true
		}
	}
	if !found || !hasRule(rep.Findings, "P13") || !hasRule(rep.Findings, "B5") || !hasRule(rep.Findings, "K12") {
		t.Errorf("findings %v", ruleIDs(rep.Findings))
	}
	if rep.Summary != Summarize(rep.Findings) {
		t.Errorf("summary %+v", rep.Summary)
	}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		k := f.Rule + "|" + f.Subject + "|" + f.Message
		if seen[k] {
			t.Errorf("duplicate finding %s", k)
		}
		seen[k] = true
	}
	// Nothing at all: every check skipped, no findings.
	empty, err := All(AllInput{})
	if err != nil || len(empty.Findings) != 0 || empty.Findings == nil {
		t.Errorf("empty: %+v %v", empty, err)
	}
}

func TestFindingsSortedStably(t *testing.T) {
	var f Findings
	f.Add("D3", "b", "m", nil)
	f.Add("T10", "a", "m", nil)
	f.Add("T2", "z", "m", nil)
	f.Add("T1", "y", "m", nil)
	f.Add("K1", "a", "m", nil)
	var got []string
	for _, x := range f.List() {
		got = append(got, x.Rule)
	}
	if strings.Join(got, " ") != "T1 K1 T2 T10 D3" {
		t.Errorf("order %v", got)
	}
	if !Fails(f.List(), Error) || Fails([]Finding{{Severity: Warn}}, Error) || !Fails([]Finding{{Severity: Info}}, Info) {
		t.Errorf("Fails thresholds wrong")
	}
}

func TestParseZones(t *testing.T) {
	z, err := ParseZones("z", []byte("# c\n10.0.0.1:8083 = a\r\n10.0.0.2\\:8083=b\n\n"))
	if err != nil || z["10.0.0.1:8083"] != "a" || z["10.0.0.2:8083"] != "b" || len(z) != 2 {
		t.Errorf("%v %v", z, err)
	}
	if _, err := ParseZones("z", []byte("10.0.0.1:8083\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("missing zone accepted: %v", err)
	}
}
