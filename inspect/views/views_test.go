package views

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// Connectors keeps only the connector the options name, as the other views
// do, even one known from its status alone.
func TestConnectorsFilteredByOption(t *testing.T) {
	names := inspect.DefaultTopicNames()
	ds := &inspect.Dataset{Topics: names, Records: []inspect.Record{
		{Topic: names.Config, Key: []byte("connector-a"), Value: []byte(`{"properties":{"connector.class":"X"}}`)},
		{Topic: names.Config, Key: []byte("connector-b"), Value: []byte(`{"properties":{"connector.class":"X"}}`)},
		{Topic: names.Status, Offset: 0, Key: []byte("status-connector-a"), Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":1}`)},
		{Topic: names.Status, Offset: 1, Key: []byte("status-connector-c"), Value: []byte(`{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":1}`)},
	}}
	for name, want := range map[string]int{"a": 1, "b": 1, "c": 1, "nosuch": 0, "": 3} {
		res := Decode(ds, store.DecodeOptions{Connector: name}).Connectors()
		if len(res.Connectors) != want {
			t.Errorf("--connector %q: %d connectors, want %d", name, len(res.Connectors), want)
		}
		for _, c := range res.Connectors {
			if name != "" && c.Name != name {
				t.Errorf("--connector %q: shows %s", name, c.Name)
			}
		}
	}
}
