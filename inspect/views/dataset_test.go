package views

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

func TestDecodeOnceAndOnDemand(t *testing.T) {
	names := inspect.DefaultTopicNames()
	ds := &inspect.Dataset{Topics: names, Records: []inspect.Record{
		{Topic: names.Config, Key: []byte("connector-a"), Value: []byte(`{"properties":{"connector.class":"X","password":"p"}}`)},
		{Topic: names.Status, Offset: 0, Key: []byte("status-connector-a"), Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":1}`)},
		{Topic: "elsewhere", Key: []byte("k"), Value: []byte("v")},
	}, Problems: []inspect.Problem{{Topic: names.Status, Partition: -1, Offset: -1, Reason: "bad line"}}}
	d := Decode(ds, store.DecodeOptions{})
	c := d.Configs()
	if c == nil || len(c.Connectors) != 1 || c != d.Configs() {
		t.Fatalf("configs %+v: want one connector, decoded once", c)
	}
	if v := c.Connectors[0].Config["password"]; v == "p" {
		t.Errorf("password shown without ShowSecrets: %s", v)
	}
	if s := d.Status(); len(s.Connectors) != 1 || s != d.Status() {
		t.Fatalf("status %+v", s)
	}
	if d.Members() != nil {
		t.Errorf("members without a group description")
	}
	// The unplaced record concerns every view; the bad status line only status.
	if n := len(d.ExtraProblems(names.Config)); n != 1 {
		t.Errorf("config view: %d extra problems, want 1", n)
	}
	if n := len(d.ExtraProblems(names.Status)); n != 2 {
		t.Errorf("status view: %d extra problems, want 2", n)
	}
	var none *Dataset
	if none.Loaded() || none.Configs() != nil || none.Members() != nil || Decode(nil, store.DecodeOptions{}).Loaded() {
		t.Error("no dataset must have no views")
	}
}
