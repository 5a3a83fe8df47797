package check

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

func clusterWith(t *testing.T, config string, urls ...string) *inspect.Dataset {
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Group: &inspect.GroupDescription{Group: "connect-cluster",
		State: inspect.GroupStable, ProtocolType: "connect", Protocol: "sessioned"}}
	for i, u := range urls {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: u})
		if err != nil {
			t.Fatal(err)
		}
		ds.Group.Members = append(ds.Group.Members, inspect.GroupMember{MemberID: "m" + string(rune('0'+i)), Metadata: meta})
	}
	ds.Records = []inspect.Record{{Topic: ds.Topics.Config, Key: []byte("connector-snk"), Value: []byte(config)}}
	return ds
}

// --to 4.x exits 1 on a removed key and a plugin a worker lacks, 0 on a
// clean cluster (an unknown release stops at the flag: TestUpgradeToFlag).
func TestUpgradeTo(t *testing.T) {
	sink := `[{"class":"org.apache.kafka.connect.file.FileStreamSinkConnector","type":"sink","version":"4.1.0"},` +
		`{"class":"org.apache.kafka.connect.transforms.ReplaceField$Value","type":"transformation","version":"4.1.0"}]`
	full, bare := kafkatest.ConnectREST(t, "4.1.0", sink), kafkatest.ConnectREST(t, "4.1.0", `[{"class":"org.apache.kafka.connect.transforms.ReplaceField$Value","type":"transformation","version":"4.1.0"}]`)
	legacy := `{"properties":{"name":"snk","connector.class":"FileStreamSink","topics":"t","transforms":"keep",` +
		`"transforms.keep.type":"org.apache.kafka.connect.transforms.ReplaceField$Value","transforms.keep.whitelist":"id"}}`
	clean := strings.Replace(legacy, "whitelist", "include", 1)
	run := func(ds *inspect.Dataset, to kafkaversion.Version) (int, string) {
		var out bytes.Buffer
		e := cli.NewEnv(context.Background(), cli.Streams{Out: &out, Err: &bytes.Buffer{}}, cli.Globals{Output: "json", Timeout: 30 * time.Second, From: "x.json"}).WithDataset(ds)
		err := runUpgrade(e, &UpgradeOptions{CheckOptions: CheckOptions{FailOn: check.Error}, Target: "sessioned", To: to})
		return cli.ExitCode(err), out.String()
	}
	to4x := kafkaversion.New(4, 4, 0)
	code, out := run(clusterWith(t, legacy, full, bare), to4x)
	if code != cli.ExitFindings || !strings.Contains(out, `"rule": "U1"`) || !strings.Contains(out, `"rule": "U11"`) || !strings.Contains(out, `"to": "4.4.0"`) {
		t.Errorf("mixed cluster: exit %d\n%s", code, out)
	}
	if code, out := run(clusterWith(t, clean, full, full), to4x); code != 0 {
		t.Errorf("clean cluster: exit %d\n%s", code, out)
	}
}

// A worker that does not answer is a U13 finding naming its HOST:PORT and
// its error, never a silent "version unknown".
func TestUpgradeToSilentWorker(t *testing.T) {
	ok := kafkatest.ConnectREST(t, "4.1.0", `[{"class":"org.apache.kafka.connect.file.FileStreamSinkConnector","type":"sink","version":"4.1.0"}]`)
	hang := kafkatest.HangingHTTP(t)
	cfg := `{"properties":{"name":"snk","connector.class":"FileStreamSink","topics":"t"}}`
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out, Err: &bytes.Buffer{}}, cli.Globals{Output: "json", Timeout: 30 * time.Second, From: "x.json"}).
		WithDataset(clusterWith(t, cfg, ok, hang.URL+"/"))
	o := &UpgradeOptions{CheckOptions: CheckOptions{FailOn: check.Warn}, Target: "sessioned", To: kafkaversion.New(4, 4, 0)}
	o.PerRequest, o.Total = 200*time.Millisecond, time.Second
	err := runUpgrade(e, o)
	hw := strings.TrimPrefix(hang.URL, "http://")
	if cli.ExitCode(err) != cli.ExitFindings || !strings.Contains(out.String(), `"rule": "U13"`) || !strings.Contains(out.String(), `"subject": "`+hw+`"`) {
		t.Errorf("silent worker %s: exit %d\n%s", hw, cli.ExitCode(err), out.String())
	}
}
