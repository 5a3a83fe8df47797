package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/source"
)

// Flags stop at the options: --connector and a typed --kafka-version.
func TestStatusFlags(t *testing.T) {
	var got *StatusOptions
	cmd := NewCmdStatus(func(_ *cli.Env, o *StatusOptions) error { got = o; return nil })
	var errb bytes.Buffer
	if code := cli.Exec(cmd, cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--connector", "orders", "--kafka-version", "3.5.2"); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got == nil || got.Connector != "orders" || got.KafkaVersion != kafkaversion.New(3, 5, 2) {
		t.Errorf("options: %+v", got)
	}
	if code := cli.Exec(NewCmdStatus(func(*cli.Env, *StatusOptions) error { return nil }), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--kafka-version", "three"); code != cli.ExitUsage {
		t.Errorf("--kafka-version three: exit %d, want %d", code, cli.ExitUsage)
	}
}

// The run function on a dataset handed in: an unknown --connector is not
// found (exit 4), a known one is shown alone.
func TestStatusRun(t *testing.T) {
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	e := cli.NewEnv(context.Background(), cli.Streams{Out: &out}, cli.Globals{Output: "json"}).WithDataset(ds)
	err = runStatus(e, &StatusOptions{ViewOptions{Connector: "no-such-connector"}})
	if code := cli.ExitCode(err); code != cli.ExitNotFound {
		t.Fatalf("unknown connector: exit %d (%v)", code, err)
	}
	var res struct {
		Connectors []struct{ Name string } `json:"connectors"`
	}
	name := "jdbc-orders-source"
	if err := runStatus(e, &StatusOptions{ViewOptions{Connector: name}}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Connectors) != 1 || res.Connectors[0].Name != name {
		t.Errorf("connectors: %+v", res.Connectors)
	}
}
