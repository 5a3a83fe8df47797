package store

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
)

func TestConnectorsJoin(t *testing.T) {
	cfg := DecodeConfigs(recNumbered(
		recCfg("connector-jdbc", `{"properties":{"connector.class":"io.confluent.connect.jdbc.JdbcSinkConnector","topics":"t"}}`),
		recCfg("task-jdbc-0", `{"properties":{}}`),
		recCfg("task-jdbc-1", `{"properties":{}}`),
		recCfg("commit-jdbc", `{"tasks":2}`),
		recCfg("connector-pg", `{"properties":{"connector.class":"io.debezium.connector.postgresql.PostgresConnector"}}`),
		recCfg("commit-pg", `{"tasks":1}`),
		recCfg("target-state-pg", `{"state":"PAUSED","state.v2":"STOPPED"}`),
		recCfg("bad", `{}`),
	), DecodeOptions{})
	st := DecodeStatus(recNumbered(
		recSt("status-connector-jdbc", recRunning),
		recSt("status-task-jdbc-0", recRunning),
		recSt("status-task-jdbc-1", `{"state":"FAILED","trace":"boom","worker_id":"w2","generation":5}`),
		recSt("status-connector-gone", recRunning),
		recSt("status-task-gone-0", recRunning),
		// pg is STOPPED with no tasks: its task's last status is history.
		recSt("status-task-pg-0", recRunning),
	), DecodeOptions{})
	res := Connectors(cfg, st)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"connectors":[` +
		`{"name":"gone","configured":false,"class":null,"type":null,"target_state":null,"state":"RUNNING","worker_id":"w1:8083","tasks_configured":null,"tasks_committed":0,"tasks_running":1,"tasks_failed":0,"tasks_stale":0,"consistent":true},` +
		`{"name":"jdbc","configured":true,"class":"io.confluent.connect.jdbc.JdbcSinkConnector","type":"sink","target_state":"STARTED","state":"RUNNING","worker_id":"w1:8083","tasks_configured":2,"tasks_committed":2,"tasks_running":1,"tasks_failed":1,"tasks_stale":0,"consistent":true},` +
		`{"name":"pg","configured":true,"class":"io.debezium.connector.postgresql.PostgresConnector","type":"source","target_state":"STOPPED","state":null,"worker_id":null,"tasks_configured":1,"tasks_committed":0,"tasks_running":0,"tasks_failed":0,"tasks_stale":1,"consistent":false}],` +
		`"records":{"read":14,"decoded":13,"tombstones":0,"problems":1},"problems":[{"topic":"connect-configs","partition":0,"offset":7,"key":"bad","reason":"key has no prefix Connect writes to the config topic: \"bad\""}]}`
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	if len(res.Tables()) != 2 || len(res.Items()) != 3 {
		t.Fatalf("tables/items")
	}
}

func TestConnectorType(t *testing.T) {
	for _, c := range []struct {
		cfg  map[string]any
		want string
	}{
		{map[string]any{"connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector", "topics": "x"}, "source"},
		{map[string]any{"connector.class": "com.x.S3SinkConnector"}, "sink"},
		{map[string]any{"connector.class": "io.debezium.connector.mysql.MySqlConnector"}, "source"},
		{map[string]any{"connector.class": "com.x.Bridge", "topics.regex": "a.*"}, "sink"},
		{map[string]any{}, "source"},
	} {
		if got := ConnectorType(c.cfg); got != c.want {
			t.Errorf("%v: %s, want %s", c.cfg, got, c.want)
		}
	}
}

// TestTablesAndItems renders every result of a replay vector as tables and
// items, checking shapes (column counts, wide indexes in range).
func TestTablesAndItems(t *testing.T) {
	recs := recReadDump(t, filepath.Join(recVectorDir, "replay", "public", "hw-st-running-failed-unassigned.jsonl"))
	config, status, _, _ := SplitTopics(recs, inspect.DefaultTopicNames())
	cfg := DecodeConfigs(config, DecodeOptions{})
	st := DecodeStatus(status, DecodeOptions{})
	off := DecodeOffsets([]inspect.Record{recOff(`["s",{"a":1}]`, `{"p":1}`)}, DecodeOptions{})
	for name, tabs := range map[string][]format.Table{
		"configs": cfg.Tables(), "status": st.Tables(), "offsets": off.Tables(), "connectors": Connectors(cfg, st).Tables(),
	} {
		if len(tabs) == 0 || len(tabs[0].Rows) == 0 {
			t.Errorf("%s: no rows", name)
		}
		for _, tab := range tabs {
			for _, row := range tab.Rows {
				if len(row) != len(tab.Header) {
					t.Errorf("%s/%s: row %v has %d cells for %d columns", name, tab.Title, row, len(row), len(tab.Header))
				}
			}
			for _, w := range tab.Wide {
				if w < 0 || w >= len(tab.Header) {
					t.Errorf("%s/%s: wide index %d out of range", name, tab.Title, w)
				}
			}
		}
	}
	items := st.Items()
	if len(items) != len(st.Connectors)+len(st.Tasks)+len(st.Topics) {
		t.Fatalf("status items %d", len(items))
	}
	b, _ := json.Marshal(items[len(st.Connectors)])
	var task map[string]any
	if err := json.Unmarshal(b, &task); err != nil || task["kind"] != "task" || task["state"] == nil || task["id"] == nil {
		t.Fatalf("task item %s", b)
	}
	if len(cfg.Items()) != len(cfg.Connectors) || len(off.Items()) != 1 {
		t.Fatal("items")
	}
}
