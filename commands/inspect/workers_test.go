package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

// groupOf is a dataset whose Connect group has one member per URL.
func groupOf(t *testing.T, urls ...string) *inspect.Dataset {
	var ms []inspect.GroupMember
	for i, u := range urls {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: u})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, inspect.GroupMember{MemberID: "m" + string(rune('0'+i)), Metadata: meta})
	}
	return &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Group: &inspect.GroupDescription{Group: "connect-cluster", State: inspect.GroupStable,
		ProtocolType: "connect", Protocol: "sessioned", Members: ms}}
}

func TestWorkersFlags(t *testing.T) {
	var got *WorkersOptions
	cmd := NewCmdWorkers(func(_ *cli.Env, o *WorkersOptions) error { got = o; return nil })
	var errb bytes.Buffer
	if code := cli.Exec(cmd, cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--rest-timeout", "2s", "--rest-user", "admin", "--restarts", "1m"); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got.PerRequest != 2*time.Second || got.User != "admin" || got.Restarts != time.Minute || got.RestartInterval != time.Second {
		t.Errorf("options: %+v", got)
	}
}

// Every member is a row; the one that does not answer carries its error,
// and the command still exits 0.
func TestWorkersRun(t *testing.T) {
	good := kafkatest.ConnectREST(t, "4.1.0", `[{"class":"org.apache.kafka.connect.file.FileStreamSourceConnector","type":"source","version":"4.1.0"}]`)
	goneURL := "http://" + kafkatest.RefusedAddr(t)
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json", Timeout: 30 * time.Second}).WithDataset(groupOf(t, good, goneURL+"/"))
	if err := runWorkers(e, &WorkersOptions{}); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Answered int `json:"answered"`
		Workers  []struct {
			Worker      string  `json:"worker"`
			Version     *string `json:"version"`
			PluginCount *int    `json:"plugin_count"`
			Error       *string `json:"error"`
			Health      *struct {
				Status string `json:"status"`
			} `json:"health"`
		} `json:"workers"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Answered != 1 || len(res.Workers) != 2 {
		t.Fatalf("%s", out.String())
	}
	for _, w := range res.Workers {
		switch {
		case strings.Contains(good, w.Worker):
			if w.Error != nil || *w.Version != "4.1.0" || *w.PluginCount != 1 || w.Health.Status != "healthy" {
				t.Errorf("good: %+v", w)
			}
		case strings.HasSuffix(goneURL, w.Worker):
			if w.Error == nil || !strings.Contains(*w.Error, "refused") {
				t.Errorf("gone: %+v", w)
			}
		default:
			t.Errorf("unexpected worker %s", w.Worker)
		}
	}
	// No member to ask is a usage error.
	empty := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json"}).WithDataset(&inspect.Dataset{Topics: inspect.DefaultTopicNames()})
	if code := cli.ExitCode(runWorkers(empty, &WorkersOptions{})); code != cli.ExitUsage {
		t.Errorf("no group: exit %d", code)
	}
}

// The plugin view names the worker that lacks a class the config topic uses.
func TestPluginsRun(t *testing.T) {
	with := kafkatest.ConnectREST(t, "4.1.0", `[{"class":"org.apache.kafka.connect.file.FileStreamSourceConnector","type":"source","version":"4.1.0"}]`)
	without := kafkatest.ConnectREST(t, "4.1.0", `[]`)
	ds := groupOf(t, with, without)
	ds.Records = []inspect.Record{{Topic: ds.Topics.Config, Key: []byte("connector-src"), Value: []byte(`{"properties":{"connector.class":"FileStreamSource","name":"src"}}`)}}
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json", Timeout: 30 * time.Second}).WithDataset(ds)
	if err := runPlugins(e, &PluginsOptions{}); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Gaps []struct {
			Connector, Worker, Class string
		} `json:"gaps"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Gaps) != 1 || res.Gaps[0].Connector != "src" || !strings.Contains(without, res.Gaps[0].Worker) {
		t.Errorf("gaps: %s", out.String())
	}
}

// No worker answering at all is input that could not be read: exit 3 with
// one line naming the workers and the fix, after the rows with their errors.
func TestWorkersNoneAnswered(t *testing.T) {
	var urls []string
	for i := 0; i < 2; i++ {
		urls = append(urls, "http://"+kafkatest.RefusedAddr(t)+"/")
	}
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json", Timeout: 30 * time.Second}).WithDataset(groupOf(t, urls...))
	err := runWorkers(e, &WorkersOptions{})
	if code := cli.ExitCode(err); code != cli.ExitInput {
		t.Fatalf("exit %d: %v", code, err)
	}
	msg := err.Error()
	for _, u := range urls {
		if !strings.Contains(msg, strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/")) {
			t.Errorf("the line does not name %s: %s", u, msg)
		}
	}
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "reachable") {
		t.Errorf("not one line with the fix: %q", msg)
	}
	if !strings.Contains(out.String(), `"answered": 0`) && !strings.Contains(out.String(), `"answered":0`) {
		t.Errorf("the rows with their errors are not printed: %s", out.String())
	}
}

// What a worker says of itself (version, commit, plugin classes and
// versions) is redacted like every other output unless --show-secrets.
func TestWorkersRedactWhatWorkersSay(t *testing.T) {
	w := kafkatest.ConnectREST(t, "4.1.0 password=hunter2", `[{"class":"jdbc:mysql://u:hunter3@db/x","type":"source","version":"token=hunter4"}]`)
	for _, show := range []bool{false, true} {
		var out bytes.Buffer
		e := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json", Timeout: 30 * time.Second, ShowSecrets: show}).WithDataset(groupOf(t, w))
		if err := runWorkers(e, &WorkersOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"hunter2", "hunter3", "hunter4"} {
			if got := strings.Contains(out.String(), secret); got != show {
				t.Errorf("--show-secrets=%v: %s shown %v: %s", show, secret, got, out.String())
			}
		}
	}
}
