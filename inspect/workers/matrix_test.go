package workers

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/store"
)

func strp(s string) *string { return &s }

func TestMatrixGaps(t *testing.T) {
	file := rest.Plugin{Class: "org.apache.kafka.connect.file.FileStreamSourceConnector", Type: "source", Version: "4.3.1"}
	replace := rest.Plugin{Class: "org.apache.kafka.connect.transforms.ReplaceField$Value", Type: "transformation", Version: "4.4.0"}
	json := rest.Plugin{Class: "org.apache.kafka.connect.json.JsonConverter", Type: "converter", Version: "4.4.0"}
	infos := []rest.WorkerInfo{
		{Worker: "w1:8083", Plugins: []rest.Plugin{file, replace, json}},
		{Worker: "w2:8083", Plugins: []rest.Plugin{replace, json}}, // no connect-file
		{Worker: "w3:8083", Plugins: []rest.Plugin{{Class: file.Class, Type: "source", Version: "3.9.2"}, replace, json}},
		{Worker: "w4:8083", Error: strp("GET http://w4:8083/: connection refused")},
	}
	cfgs := &store.ConfigsResult{Connectors: []store.ConnectorConfig{
		{Name: "src", Config: map[string]any{"connector.class": "FileStreamSource", "connector.plugin.version": "[4.0,)",
			"transforms": "drop", "transforms.drop.type": "org.apache.kafka.connect.transforms.ReplaceField$Value",
			"value.converter": "org.apache.kafka.connect.json.JsonConverter"},
			Tasks: []store.TaskConfig{{ID: "src-0"}}},
		{Name: "plain", Config: map[string]any{"connector.class": "org.apache.kafka.connect.json.JsonConverter"}}, // nonsense class, present everywhere
	}}
	members := &group.MembersResult{Members: []group.MemberView{
		{MemberID: "m2", URL: strp("http://w2:8083/"), Owned: &group.OwnedPieces{Connectors: []string{"src"}, Tasks: []string{}}},
		{MemberID: "m3", URL: strp("http://w3:8083/"), Owned: &group.OwnedPieces{Tasks: []string{"src-0"}}},
	}}
	m := BuildMatrix(infos, cfgs, members)
	if len(m.Workers) != 3 || len(m.Unknown) != 1 || m.Unknown[0].Worker != "w4:8083" {
		t.Fatalf("workers %v unknown %v", m.Workers, m.Unknown)
	}
	if len(m.Gaps) != 2 {
		t.Fatalf("gaps: %+v", m.Gaps)
	}
	missing, pinned := m.Gaps[0], m.Gaps[1]
	if missing.Worker != "w2:8083" || missing.Key != "connector.class" || len(missing.Has) != 0 ||
		strings.Join(missing.Now, ",") != "src" || strings.Join(missing.CouldLand, ",") != "src-0" {
		t.Errorf("missing class gap: %+v", missing)
	}
	if pinned.Worker != "w3:8083" || !strings.Contains(pinned.Reason, "only at 3.9.2, outside connector.plugin.version=[4.0,)") ||
		strings.Join(pinned.Now, ",") != "src-0" {
		t.Errorf("pin gap: %+v", pinned)
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, m, format.Options{Output: "table"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "w4:8083: plugins unknown") {
		t.Errorf("table:\n%s", buf.String())
	}
	// Without pins and with every class everywhere there is no gap.
	delete(cfgs.Connectors[0].Config, "connector.plugin.version")
	infos[1].Plugins = append(infos[1].Plugins, file)
	if g := BuildMatrix(infos, cfgs, members).Gaps; len(g) != 0 {
		t.Errorf("near miss: %+v", g)
	}
}

func TestResolvesAliases(t *testing.T) {
	p := rest.Plugin{Class: "org.apache.kafka.connect.file.FileStreamSinkConnector", Type: "sink"}
	for _, c := range []string{"org.apache.kafka.connect.file.FileStreamSinkConnector", "FileStreamSinkConnector", "FileStreamSink"} {
		if !Resolves(p, c) {
			t.Errorf("%s must resolve", c)
		}
	}
	for _, c := range []string{"com.other.FileStreamSinkConnector", "FileStream"} {
		if Resolves(p, c) {
			t.Errorf("%s must not resolve", c)
		}
	}
}

// A rebalancing group's members carry no metadata: the worker is asked at
// its client.id's HOST:PORT.
func TestTargetsWithoutMetadata(t *testing.T) {
	u := "https://w1:8443/"
	ts, ids := Targets(&group.MembersResult{Members: []group.MemberView{
		{MemberID: "a", ClientID: "connect-w1:8443", URL: &u},
		{MemberID: "b", ClientID: "connect-w2:8083"},
		{MemberID: "c", ClientID: "producer-1"},
	}})
	if len(ts) != 3 || ids[1] != "b" || ts[0].URL != u || ts[0].Guessed ||
		ts[1].URL != "http://w2:8083/" || !ts[1].Guessed || ts[1].Worker != "w2:8083" || ts[2].URL != "" {
		t.Errorf("%+v", ts)
	}
}

// AskPlugins asks each member for its plugins (not its health), and the worker that
// lacks the class a connector uses is a gap.
func TestAskPlugins(t *testing.T) {
	var paths sync.Map
	serve := func(plugins string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			paths.Store(r.URL.Path, true)
			answer := plugins
			if r.URL.Path == "/" {
				answer = `{"version":"4.1.0"}`
			}
			w.Write([]byte(answer))
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/"
	}
	with := serve(`[{"class":"org.apache.kafka.connect.file.FileStreamSourceConnector","type":"source","version":"4.1.0"}]`)
	without := serve(`[]`)
	members := &group.MembersResult{Members: []group.MemberView{{MemberID: "a", URL: &with}, {MemberID: "b", URL: &without}}}
	cfgs := &store.ConfigsResult{Connectors: []store.ConnectorConfig{{Name: "src", Config: map[string]any{"connector.class": "FileStreamSource"}}}}
	m := AskPlugins(context.Background(), rest.New(rest.Options{}), members, cfgs)
	if len(m.Workers) != 2 || len(m.Gaps) != 1 || !strings.Contains(without, m.Gaps[0].Worker) || m.Gaps[0].Connector != "src" {
		t.Errorf("matrix %+v", m)
	}
	if _, asked := paths.Load("/health"); asked {
		t.Error("asked /health: only the plugins were wanted")
	}
}
