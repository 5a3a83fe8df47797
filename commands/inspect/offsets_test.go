package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// liveEnv is a run's Env reading the embedded cluster c, as -b would.
func liveEnv(c *kafkatest.Cluster) *cli.Env {
	g := cli.Globals{Bootstrap: []string{c.Bootstrap()}, Group: kafkatest.Group, Timeout: 10 * time.Second,
		Topics: inspect.TopicNames{Config: kafkatest.ConfigTopic, Offset: kafkatest.OffsetTopic, Status: kafkatest.StatusTopic}}
	var out, errb bytes.Buffer
	return cli.NewEnv(context.Background(), cli.Streams{Out: &out, Err: &errb}, g)
}

// The streamed live path of `inspect offsets` gives what decoding the whole
// dataset gives.
func TestLoadOffsetsStreams(t *testing.T) {
	c := kafkatest.New(t)
	c.SeedConnect(t)
	var recs []*kgo.Record
	for i := range 2000 {
		recs = append(recs, kafkatest.OffsetRecord(i))
	}
	c.ProduceKeyed(t, recs...)
	e := liveEnv(c)
	d, err := loadOffsets(e, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	streamed, _ := json.Marshal(d.Offsets())
	ds, err := e.DatasetAs(cli.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := json.Marshal(views.Decode(ds, store.DecodeOptions{}).Offsets())
	if len(streamed) < 1000 || string(streamed) != string(whole) {
		t.Errorf("streamed and whole decodes differ:\n%.300s\n%.300s", streamed, whole)
	}
}
