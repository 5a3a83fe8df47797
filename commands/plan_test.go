package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/source"
)

const assignorVectors = "../../shared/vectors/assignor/public"

func TestPlanReplayReproducesVectors(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(assignorVectors, "*.scenario.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no assignor vectors under %s (err %v): the shared folder must sit beside the repository", assignorVectors, err)
	}
	for i, f := range files {
		// The plan package replays every vector; here the command's path
		// (the file, flags after it, the streaming -o json) does, every
		// fourth one under -short.
		if testing.Short() && i%4 != 0 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".scenario.json")
		// Flags after FILE, as the README's examples write them.
		out, stderr, code := run(t, "plan", "replay", f, "-o", "json")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".scenario.json") + ".expected.json")
		if err != nil {
			t.Fatal(err)
		}
		var got, exp any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: output is not JSON: %v", name, err)
			continue
		}
		if err := json.Unmarshal(want, &exp); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: output differs from Kafka's", name)
		}
	}
}

func TestPlanReplayTable(t *testing.T) {
	t.Parallel()
	f := filepath.Join(assignorVectors, "ops-connector-replaced.scenario.json")
	out, stderr, code := run(t, "plan", "replay", f)
	if code != 0 || !strings.Contains(out, "w1") {
		t.Errorf("exit %d, stderr %q, out %q", code, stderr, out)
	}
}

func TestPlanReplayBadScenarios(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string]struct {
		body string
		want []string
	}{
		"unknown-step":  {`{"scenario":1,"steps":[{"join":["w1"]},{"explode":{}}]}`, []string{"step 1", "explode"}},
		"leave-unknown": {`{"scenario":1,"steps":[{"join":["w1"]},{"leave":["w2"]}]}`, []string{"step 1", "w2"}},
		"negative":      {`{"scenario":1,"steps":[{"connectors":{"a":-1}}]}`, []string{"step 0", "a"}},
		"version":       {`{"scenario":7,"steps":[]}`, []string{"scenario"}},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := run(t, "plan", "replay", path)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want 2 (%s)", name, code, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: error is not one line: %q", name, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: error %q does not name %q", name, stderr, w)
			}
		}
	}
	if _, _, code := run(t, "plan", "replay", filepath.Join(dir, "missing.json")); code != ExitInput {
		t.Errorf("missing file: exit %d, want 3", code)
	}
	if _, _, code := run(t, "plan", "replay", filepath.Join(assignorVectors, "ops-connector-replaced.scenario.json"), "--kafka-version", "abc"); code != ExitUsage {
		t.Errorf("unknown Kafka version: exit %d, want 2", code)
	}
	// plan and check read --kafka-version alike (one version type).
	if _, stderr, code := run(t, "plan", "replay", filepath.Join(assignorVectors, "ops-connector-replaced.scenario.json"), "--kafka-version", "v3.4"); code != ExitOK {
		t.Errorf("--kafka-version v3.4: exit %d, want 0 (%s)", code, stderr)
	}
}

// planJSON runs a plan command with -o json and decodes the result.
func planJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, stderr, code := run(t, append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return m
}

func branches(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, b := range m["branches"].([]any) {
		out = append(out, b.(map[string]any))
	}
	return out
}

func TestPlanCommandsOnSynthetic(t *testing.T) {
	t.Parallel()
	syn := "--synthetic=workers=6,connectors=30,tasks=3"
	join := planJSON(t, "plan", "join", syn, "--add", "2")
	if join["plan"] != "join" || len(branches(t, join)) != 1 || !strings.Contains(join["event"].(string), "w7, w8") {
		t.Errorf("join: %v", join["event"])
	}
	leave := planJSON(t, "plan", "leave", syn, "--worker", "w3", "--returns-after", "90s")
	bs := branches(t, leave)
	if len(bs) != 2 || !strings.Contains(bs[0]["name"].(string), "within the delay") || !strings.Contains(bs[1]["name"].(string), "does not return") {
		t.Errorf("leave branches: %v", bs)
	}
	a := leave["assumptions"].(map[string]any)
	if a["max_delay_ms"].(float64) != 300000 || a["session_timeout_ms"].(float64) != 10000 || a["round_time_ms"].(float64) != 2000 || a["returns_after_ms"].(float64) != 90000 {
		t.Errorf("assumptions %v", a)
	}
	conn := planJSON(t, "plan", "connector", syn, "--set", "conn-00=8", "--remove", "conn-01", "--add", "zeta=2")
	final := branches(t, conn)[0]["cooperative"].(map[string]any)["summary"].(map[string]any)["final"].([]any)
	tasks := 0.0
	for _, w := range final {
		tasks += w.(map[string]any)["tasks"].(float64)
	}
	if tasks != 90-3+8-3+2 {
		t.Errorf("connector: %v tasks at the end, want 94", tasks)
	}
	rr := planJSON(t, "plan", "rolling-restart", syn, "--restart-time", "90s", "--max-delay", "5m", "--round-time", "1s")
	co := branches(t, rr)[0]["cooperative"].(map[string]any)
	if n := len(co["rounds"].([]any)); n < 7 {
		t.Errorf("rolling restart: %d rounds", n)
	}
	if rr["assumptions"].(map[string]any)["round_time_ms"].(float64) != 1000 {
		t.Errorf("--round-time not applied")
	}
	out, stderr, code := run(t, "plan", "join", "--synthetic", "workers=3,connectors=10,tasks=4", "--add", "1", "-o", "mermaid")
	if code != 0 || !strings.HasPrefix(out, "sequenceDiagram\n") {
		t.Errorf("mermaid: exit %d %s\n%s", code, stderr, out)
	}
	out, _, code = run(t, "plan", "leave", syn, "--worker", "w2")
	if code != 0 || !strings.Contains(out, "assumptions") || !strings.Contains(out, "EAGER") {
		t.Errorf("table output: exit %d\n%s", code, out)
	}
}

func TestPlanUsageErrors(t *testing.T) {
	t.Parallel()
	syn := "--synthetic=workers=3,connectors=3"
	cases := map[string][]string{
		"bad synthetic":  {"plan", "join", "--synthetic", "workers=3,colour=red", "--add", "1"},
		"bad max delay":  {"plan", "join", syn, "--add", "1", "--max-delay", "soon"},
		"negative delay": {"plan", "join", syn, "--add", "1", "--max-delay", "-5s"},
		"bad version":    {"plan", "join", syn, "--add", "1", "--kafka-version", "0.1"},
		"bad protocol":   {"plan", "join", syn, "--add", "1", "--protocol", "turbo"},
		"bad restart":    {"plan", "rolling-restart", syn, "--restart-time", "later"},
		"bad order":      {"plan", "rolling-restart", syn, "--restart-time", "1m", "--order", "w1,w1"},
		"bad set":        {"plan", "connector", syn, "--set", "conn-00"},
		"nothing to add": {"plan", "join", syn, "--add", "0"},
		"both inputs":    {"plan", "join", syn, "--from", "x.json", "--add", "1"},
		"bad stop":       {"plan", "leave", syn, "--worker", "w1", "--stop", "gently"},
		"stray argument": {"plan", "join", syn, "--add", "1", "extra"},
	}
	for name, args := range cases {
		_, stderr, code := run(t, args...)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want 2 (%s)", name, code, stderr)
		}
	}
	_, stderr, _ := run(t, "plan", "join", "--synthetic", "workers=3,colour=red", "--add", "1")
	if !strings.Contains(stderr, "field colour") {
		t.Errorf("bad synthetic spec error does not name the field: %q", stderr)
	}
}

func TestPlanFromSnapshotFile(t *testing.T) {
	t.Parallel()
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{
		{Topic: "connect-configs", Offset: 0, Key: []byte("connector-orders"), Value: []byte(`{"properties":{"connector.class":"X"}}`)},
		{Topic: "connect-configs", Offset: 1, Key: []byte("task-orders-0"), Value: []byte(`{"properties":{}}`)},
		{Topic: "connect-configs", Offset: 2, Key: []byte("task-orders-1"), Value: []byte(`{"properties":{}}`)},
		{Topic: "connect-configs", Offset: 3, Key: []byte("commit-orders"), Value: []byte(`{"tasks":2}`)},
	}}
	var members []inspect.GroupMember
	for i, id := range []string{"connect-1-a", "connect-2-b"} {
		url := []string{"http://10.0.0.1:8083/", "http://10.0.0.2:8083/"}[i]
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: url, ConfigOffset: 3})
		if err != nil {
			t.Fatal(err)
		}
		conns := []string{"orders"}
		if i == 1 {
			conns = nil
		}
		asg, err := protocol.EncodeAssignment(&protocol.Assignment{Version: 2, Leader: "connect-1-a", ConfigOffset: 3,
			Assigned: protocol.EntriesFor(conns, []protocol.TaskRef{{Connector: "orders", Task: int32(i)}})})
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, inspect.GroupMember{MemberID: id, ClientID: strings.TrimSuffix(id, id[len(id)-2:]), Metadata: meta, Assignment: asg})
	}
	ds.Group = &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: "sessioned", Members: members}
	path := filepath.Join(t.TempDir(), "cluster.snapshot.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := source.WriteSnapshot(f, ds); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m := planJSON(t, "plan", "leave", "--from", path, "--worker", "10.0.0.2:8083", "--returns-after", "90s")
	bs := branches(t, m)
	if len(bs) != 2 || m["assumptions"].(map[string]any)["leader"] != "connect-1-a" {
		t.Fatalf("branches %d, assumptions %v", len(bs), m["assumptions"])
	}
	co := bs[0]["cooperative"].(map[string]any)
	first := co["rounds"].([]any)[0].(map[string]any)
	if first["delay_ms"].(float64) != 300000 {
		t.Errorf("first round delay %v, want the default max delay", first["delay_ms"])
	}
	for _, cmd := range [][]string{
		{"plan", "join", "--from", path, "--add", "1"},
		{"plan", "connector", "--from", path, "--set", "orders=4"},
		{"plan", "rolling-restart", "--from", path, "--restart-time", "30s"},
	} {
		if _, stderr, code := run(t, cmd...); code != 0 {
			t.Errorf("%v: exit %d: %s", cmd, code, stderr)
		}
	}
	if _, _, code := run(t, "plan", "join", "--from", filepath.Join(t.TempDir(), "none.json"), "--add", "1"); code != ExitInput {
		t.Errorf("missing snapshot: exit %d, want 3", code)
	}
}
