package commands

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"gopkg.in/yaml.v3"
)

// Hostile cluster text: terminal control (OSC title, screen clear, C1
// CSI, backspace), a right-to-left override, shell syntax, SVG/HTML
// markup, and a word far longer than a screen.
var (
	hostileMix = "\x1b]0;owned\x07\x1b[2J\u009b31m\b\u202eevil$(touch P);`id`</svg><script>&amp;" + strings.Repeat("W", 400)
	// Names and strings as the cluster would hold them.
	hostileConnector = "conn-" + hostileMix
	hostileLines     = "two\nlines\r</text>"
	hostileWorker    = "w1" + "\x1b]0;t\x07\u202e</svg>$(x)" + ":8083"
	hostileClass     = "com.evil.\x1b[2JSource</svg>\u202e"
	hostileVersion   = "4.1.0\x1b]0;pwn\x07\u202e</svg>\nx"
	hostileTrace     = "org.apache.kafka.connect.errors.ConnectException: \x1b]0;t\x07 boom\n\tat " + hostileMix
)

// hostileSnapshot is a snapshot whose connectors, tasks, traces, worker ids
// and class names are hostile, with a rebalance in its status history and a
// group whose members' REST APIs (restURL) answer hostile versions and
// plugins.
func hostileSnapshot(t *testing.T, restURL string) string {
	t.Helper()
	topics := inspect.DefaultTopicNames()
	ds := &inspect.Dataset{Topics: topics, Group: &inspect.GroupDescription{Group: "connect-cluster",
		State: inspect.GroupStable, ProtocolType: "connect", Protocol: "sessioned"}}
	off := map[string]int64{}
	add := func(topic string, ts int64, key string, value any) {
		b, err := json.Marshal(value)
		if err != nil {
			t.Fatal(err)
		}
		ds.Records = append(ds.Records, inspect.Record{Topic: topic, Offset: off[topic], Timestamp: ts, Key: []byte(key), Value: b})
		off[topic]++
	}
	type props = map[string]any
	const t0 = int64(1_760_000_000_000)
	for _, name := range []string{hostileConnector, hostileLines} {
		cfg := map[string]string{"connector.class": hostileClass, "name": name, "tasks.max": "1", "topic": hostileMix,
			// a key Kafka 4.0 removed, so check upgrade --to quotes the name
			"transforms": "r", "transforms.r.type": "org.apache.kafka.connect.transforms.ReplaceField$Value", "transforms.r.whitelist": hostileMix}
		add(topics.Config, t0, "connector-"+name, props{"properties": cfg})
		add(topics.Config, t0, "task-"+name+"-0", props{"properties": cfg})
		add(topics.Config, t0, "commit-"+name, props{"tasks": 1})
	}
	status := func(ts int64, key, state, worker string, gen int, trace any) {
		add(topics.Status, ts, key, props{"state": state, "trace": trace, "worker_id": worker, "generation": gen})
	}
	status(t0, "status-connector-"+hostileConnector, "RUNNING", hostileWorker, 1, nil)
	status(t0, "status-task-"+hostileConnector+"-0", "RUNNING", hostileWorker, 1, nil)
	status(t0, "status-connector-"+hostileLines, "RUNNING", "w2:8083", 1, nil)
	status(t0, "status-task-"+hostileLines+"-0", "RUNNING", "w2:8083", 1, nil)
	// The hostile worker stops cleanly; its work moves to w2 and fails there.
	status(t0+10_000, "status-task-"+hostileConnector+"-0", "UNASSIGNED", hostileWorker, 2, nil)
	status(t0+10_000, "status-connector-"+hostileConnector, "UNASSIGNED", hostileWorker, 2, nil)
	status(t0+12_000, "status-connector-"+hostileConnector, "RUNNING", "w2:8083", 3, nil)
	status(t0+12_000, "status-task-"+hostileConnector+"-0", "FAILED", "w2:8083", 3, hostileTrace)
	// The hostile worker still runs the second connector's task.
	status(t0+12_000, "status-task-"+hostileLines+"-0", "RUNNING", hostileWorker, 3, nil)
	// A member advertising a hostile REST URL (the third).
	urls := []string{restURL + "/w0/", restURL + "/w1/", "http://" + hostileWorker + "/"}
	for i, u := range urls {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: u})
		if err != nil {
			t.Fatal(err)
		}
		ds.Group.Members = append(ds.Group.Members, inspect.GroupMember{MemberID: fmt.Sprintf("m%d", i), Metadata: meta})
	}
	return writeSnapshot(t, ds, "hostile.snapshot.json")
}

// hostileScenario is a plan scenario whose connectors and workers carry
// hostile names: a worker leaves and a hostile one joins.
func hostileScenario(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"scenario": 1, "name": hostileMix, "protocol": "sessioned", "steps": []any{
		map[string]any{"connectors": map[string]int{hostileConnector: 2, hostileLines: 1}},
		map[string]any{"join": []string{hostileWorker, "w2"}},
		map[string]any{"rebalance": map[string]any{}},
		map[string]any{"leave": []string{"w2"}},
		map[string]any{"join": []string{hostileWorker + "\n2"}},
		map[string]any{"settle": map[string]any{}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.scenario.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostileREST is a Connect REST API whose answers are hostile.
func hostileREST(t *testing.T) string {
	t.Helper()
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/health"):
			w.Write(enc(map[string]string{"status": "healthy", "message": "Worker has completed startup and is ready to handle requests. " + hostileMix}))
		case strings.HasSuffix(r.URL.Path, "/connector-plugins"):
			w.Write(enc([]map[string]string{{"class": hostileClass, "type": "source", "version": hostileVersion}}))
		default:
			w.Write(enc(map[string]string{"version": hostileVersion, "commit": hostileMix, "kafka_cluster_id": "k\x1b[2J"}))
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// rawOnTerminal names what must never reach a terminal: ESC and the other
// C0 controls but tab, C1 controls, the bidi marks, a newline inside what
// should be one line (checked by the caller), and a word of hundreds of
// characters.
func rawOnTerminal(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && strings.HasPrefix(s[i:], "\ufffd") == false:
			return fmt.Sprintf("invalid UTF-8 at %d", i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0:
			return fmt.Sprintf("control %U at %d", r, i)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return fmt.Sprintf("bidi mark %U at %d", r, i)
		}
	}
	if strings.Contains(s, "two\nlines") {
		return "a name's newline printed raw"
	}
	return ""
}

// holds reports whether v (decoded JSON or YAML) holds the string want
// exactly, as a value or a key.
func holds(v any, want string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, want)
	case []any:
		for _, e := range x {
			if holds(e, want) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, want) || holds(e, want) {
				return true
			}
		}
	}
	return false
}

// Every view of hostile cluster text, in every format: nothing reaches the
// terminal raw, machine formats stay valid and carry the exact text (as
// escapes where a terminal would act on it), and a plot stays well-formed
// XML.
func TestHostileNamesInEveryView(t *testing.T) {
	t.Parallel() // owns its snapshot, scenario and REST server
	snap := hostileSnapshot(t, hostileREST(t))
	scen := hostileScenario(t)
	views := []struct {
		name    string
		args    []string
		exact   string // text JSON and YAML must carry exactly ("" : none)
		formats []string
	}{
		{"status", []string{"inspect", "status"}, hostileConnector, nil},
		{"connectors", []string{"inspect", "connectors"}, hostileConnector, nil},
		{"connector", []string{"inspect", "connector", hostileConnector}, hostileTrace, nil},
		{"configs", []string{"inspect", "configs"}, hostileClass, nil},
		{"rebalances", []string{"inspect", "rebalances"}, hostileWorker, nil},
		{"worker", []string{"inspect", "worker", "w2:8083"}, hostileConnector, nil},
		{"hostile worker", []string{"inspect", "worker", hostileWorker}, hostileLines, nil},
		{"members", []string{"inspect", "members"}, "", nil},
		{"workers", []string{"inspect", "workers"}, hostileVersion, nil},
		{"plugins", []string{"inspect", "plugins"}, hostileConnector, nil},
		{"check all", []string{"check", "all"}, "", nil},
		{"check upgrade --to", []string{"check", "upgrade", "--to", "4.0"}, hostileConnector, nil},
		{"plan replay", []string{"plan", "replay", scen}, hostileConnector, nil},
		{"plan leave", []string{"plan", "leave", "--worker", "m2"}, "", []string{"table", "wide", "json", "yaml", "jsonl", "mermaid"}},
	}
	for _, v := range views {
		formats := v.formats
		if formats == nil {
			formats = []string{"table", "wide", "json", "yaml", "jsonl"}
		}
		for _, f := range formats {
			t.Run(v.name+"/"+f, func(t *testing.T) {
				args := append([]string{"-o", f}, v.args...)
				if v.args[0] != "plan" || v.args[1] != "replay" {
					args = append([]string{"--from", snap}, args...)
				}
				out, stderr, code := run(t, args...)
				if code > 1 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if bad := rawOnTerminal(stderr); bad != "" {
					t.Errorf("stderr: %s: %q", bad, stderr)
				}
				checkFormat(t, f, out, v.exact)
			})
		}
	}
	for name, args := range map[string][]string{
		"plan leave": {"--from", snap, "plan", "leave", "--worker", "m2"},
		"plan join":  {"--from", snap, "plan", "join", "--add", "1"},
	} {
		t.Run(name+"/--plot", func(t *testing.T) {
			svg := filepath.Join(t.TempDir(), "plan.svg")
			if _, stderr, code := run(t, append(args, "--plot", svg)...); code > 1 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(svg)
			if err != nil {
				t.Fatal(err)
			}
			wellFormed(t, b)
			if !strings.Contains(string(b), "w1") {
				t.Errorf("the plot does not show the hostile worker")
			}
		})
	}
}

func checkFormat(t *testing.T, f, out, exact string) {
	t.Helper()
	// Machine formats too: their exact text holds no rune a terminal
	// acts on raw, only escapes that read back as it.
	if bad := rawOnTerminal(out); bad != "" {
		t.Errorf("-o %s: %s", f, bad)
	}
	switch f {
	case "json":
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("invalid JSON: %v", err)
		}
		if exact != "" && !holds(v, exact) {
			t.Errorf("JSON does not carry %q exactly", exact)
		}
	case "jsonl":
		found := exact == "" || strings.TrimSpace(out) == "" // no items (plugins: no gap)
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if line == "" { // no items
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("invalid JSON line %q: %v", line, err)
			}
			found = found || holds(v, exact)
		}
		if !found {
			t.Errorf("JSON lines do not carry %q exactly", exact)
		}
	case "yaml":
		var v any
		if err := yaml.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("invalid YAML: %v", err)
		}
		if exact != "" && !holds(v, exact) {
			t.Errorf("YAML does not carry %q exactly", exact)
		}
	default: // table, wide, mermaid: for a terminal or a page
		if bad := rawOnTerminal(out); bad != "" {
			t.Errorf("%s", bad)
		}
		if f == "mermaid" && (strings.Contains(out, "</svg>") || strings.Contains(out, "<script>")) {
			t.Errorf("markup reaches the diagram raw")
		}
	}
}

// wellFormed parses b as XML to its end and checks no control reaches it.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
	if strings.Contains(string(b), "<script") {
		t.Errorf("markup from a name reaches the SVG raw")
	}
}
