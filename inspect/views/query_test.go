package views

import (
	"errors"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/source"
)

func exampleDataset(t *testing.T) *inspect.Dataset {
	t.Helper()
	ds, err := source.LoadFile("../../examples/cluster.snapshot.json", inspect.TopicNames{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// listings are the listing views, each giving its rows' count.
var listings = map[string]func(*Dataset, Query) (int, error){
	"configs": func(d *Dataset, q Query) (int, error) {
		r, err := d.ConfigsView(q)
		return rows(err, func() int { return len(r.Connectors) })
	},
	"status": func(d *Dataset, q Query) (int, error) {
		r, err := d.StatusView(q)
		return rows(err, func() int { return len(r.Connectors) + len(r.Tasks) })
	},
	"connectors": func(d *Dataset, q Query) (int, error) {
		r, err := d.ConnectorsView(q)
		return rows(err, func() int { return len(r.Connectors) })
	},
	"offsets": func(d *Dataset, q Query) (int, error) {
		r, err := d.OffsetsView(q)
		return rows(err, func() int { return len(r.Offsets) })
	},
	"sinks": func(d *Dataset, q Query) (int, error) {
		r, err := d.SinksView(q)
		return rows(err, func() int { return len(r.Sinks) })
	},
}

func rows(err error, n func() int) (int, error) {
	if err != nil {
		return 0, err
	}
	return n(), nil
}

// ask runs the listing view named on ds decoded for connector: its rows.
func ask(ds *inspect.Dataset, view, connector string, q Query) (int, error) {
	return listings[view](Decode(ds, Options{Connector: connector}), q)
}

// A connector the input does not hold is not found, named with the topics
// each view looked in; a connector of the kind a view does not show (a
// source asked of sinks, a sink of offsets) says so; one the view shows is
// found.
func TestViewsConnectorNotFound(t *testing.T) {
	ds := exampleDataset(t)
	both := "connect-configs or connect-status"
	for _, c := range []struct {
		view, connector, kind, where string
	}{
		{"configs", "nosuch", "", both},
		{"status", "nosuch", "", both},
		{"connectors", "nosuch", "", both},
		{"offsets", "nosuch", "", both + " or connect-offsets"},
		{"sinks", "nosuch", "", both},
		{"offsets", "s3-orders-sink", "sink", ""},
		{"sinks", "jdbc-orders-source", "source", ""},
	} {
		_, err := ask(ds, c.view, c.connector, Query{})
		var nf *NotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) || nf.Name != c.connector || nf.Kind != c.kind {
			t.Errorf("%s --connector %s: %v (%#v), want not found of kind %q", c.view, c.connector, err, nf, c.kind)
			continue
		}
		want := `connector "` + c.connector + `" not found in ` + c.where + ": `connectscope inspect connectors` lists the connectors"
		if c.kind != "" {
			want = c.connector + " is a " + c.kind + " connector: "
		}
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s --connector %s: %q, want %q", c.view, c.connector, err, want)
		}
	}
	for _, view := range []string{"configs", "status", "connectors", "offsets"} {
		if n, err := ask(ds, view, "jdbc-orders-source", Query{}); err != nil || n == 0 {
			t.Errorf("%s --connector jdbc-orders-source: %d rows, %v", view, n, err)
		}
	}
	if n, err := ask(ds, "sinks", "s3-orders-sink", Query{}); err != nil || n != 1 {
		t.Errorf("sinks --connector s3-orders-sink: %d rows, %v", n, err)
	}
}

// The topics a not-found line names are the dataset's: a snapshot that
// names its own topics is looked up in those, by every view.
func TestViewsNotFoundNamesTheDatasetsTopics(t *testing.T) {
	ds := exampleDataset(t)
	ds.Topics = inspect.TopicNames{Config: "a-configs", Status: "a-status", Offset: "a-offsets"}
	for _, view := range []string{"configs", "status", "connectors", "offsets", "sinks"} {
		_, err := ask(ds, view, "nosuch", Query{})
		if err == nil || !strings.Contains(err.Error(), "not found in a-configs or a-status") {
			t.Errorf("%s: %v", view, err)
		}
	}
}

// The connector is looked for before the filters are read: a bad filter
// value with an unknown connector is not found; with a known one it is the
// filter's error, naming its input.
func TestViewsFiltersReadAfterTheConnector(t *testing.T) {
	ds := exampleDataset(t)
	bad := Query{Type: "both"}
	for _, view := range []string{"configs", "status", "connectors", "offsets", "sinks"} {
		var nf *NotFoundError
		if _, err := ask(ds, view, "nosuch", bad); !errors.As(err, &nf) {
			t.Errorf("%s: unknown connector and a bad type: %v, want not found", view, err)
		}
		var fe *field.Error
		if _, err := ask(ds, view, "", bad); !errors.As(err, &fe) || fe.Name != "Type" {
			t.Errorf("%s: a bad type: %v, want the Type input's error", view, err)
		}
	}
	var fe *field.Error
	if _, err := ask(ds, "status", "", Query{States: []string{"HAPPY"}}); !errors.As(err, &fe) || fe.Name != "State" {
		t.Errorf("status --state HAPPY: %v", err)
	}
	if _, err := ask(ds, "connectors", "", Query{Pattern: "("}); !errors.As(err, &fe) || fe.Name != "Pattern" {
		t.Errorf("connectors -e (: %v", err)
	}
}

// Each view narrows by its filters (names, type from the configs, state).
func TestViewsFilter(t *testing.T) {
	ds := exampleDataset(t)
	d := Decode(ds, Options{})
	conns, err := d.ConnectorsView(Query{Pattern: "orders", Type: "sink"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range conns.Connectors {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "es-orders-sink,s3-orders-sink" {
		t.Errorf("connectors -e orders --type sink: %v", names)
	}
	st, err := Decode(ds, Options{}).StatusView(Query{States: []string{"failed"}})
	if err != nil || len(st.Connectors) != 0 || len(st.Tasks) != 1 || st.Tasks[0].ID != "debezium-inventory-0" || len(st.Topics) != 0 {
		t.Errorf("status --state FAILED: %+v %v", st, err)
	}
	if n, err := ask(ds, "offsets", "", Query{Pattern: "^mongo"}); err != nil || n != 1 {
		t.Errorf("offsets -e ^mongo: %d rows, %v", n, err)
	}
	if n, err := ask(ds, "sinks", "", Query{Pattern: "^s3"}); err != nil || n != 1 {
		t.Errorf("sinks -e ^s3: %d rows, %v", n, err)
	}
	if n, err := ask(ds, "configs", "", Query{Type: "source", States: []string{"STARTED"}}); err != nil || n == 0 {
		t.Errorf("configs --type source --state STARTED: %d rows, %v", n, err)
	}
}

// statusOnly is a dataset as a live view of the status topic reads it, and
// the config topic that Query.Others reads beside it.
func statusOnly() (status, configs *inspect.Dataset) {
	names := inspect.DefaultTopicNames()
	running := []byte(`{"state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":1}`)
	status = &inspect.Dataset{Topics: names, Records: []inspect.Record{
		{Topic: names.Status, Offset: 0, Key: []byte("status-connector-in"), Value: running},
		{Topic: names.Status, Offset: 1, Key: []byte("status-connector-out"), Value: running},
	}}
	configs = &inspect.Dataset{Topics: names, Records: []inspect.Record{
		{Topic: names.Config, Key: []byte("connector-in"), Value: []byte(`{"properties":{"connector.class":"FileStreamSourceConnector"}}`)},
		{Topic: names.Config, Key: []byte("connector-out"), Value: []byte(`{"properties":{"connector.class":"FileStreamSinkConnector"}}`)},
	}}
	return status, configs
}

// A type filter on a dataset without configs takes the types from the
// config topic Others reads, once; without a type filter Others is not read.
func TestViewsTypesFromOthers(t *testing.T) {
	status, configs := statusOnly()
	calls := 0
	others := func() (*inspect.Dataset, error) { calls++; return configs, nil }
	res, err := Decode(status, Options{}).StatusView(Query{Type: "sink", Others: others})
	if err != nil || len(res.Connectors) != 1 || res.Connectors[0].Name != "out" || calls != 1 {
		t.Errorf("status --type sink: %+v %v, Others read %d times", res.Connectors, err, calls)
	}
	calls = 0
	if res, err := Decode(status, Options{}).StatusView(Query{Others: others}); err != nil || len(res.Connectors) != 2 || calls != 0 {
		t.Errorf("status: %+v %v, Others read %d times", res.Connectors, err, calls)
	}
	failed := errors.New("unreachable")
	_, err = Decode(status, Options{}).StatusView(Query{Type: "sink", Others: func() (*inspect.Dataset, error) { return nil, failed }})
	if !errors.Is(err, failed) {
		t.Errorf("a failed read of the others: %v", err)
	}
}

// Live, the offsets view reads only the offsets topic: a connector without
// offsets is looked up in what Others reads (a sink there is of the other
// kind, an unknown name not found), and a type filter reuses that read.
func TestViewsOffsetsLooksElsewhere(t *testing.T) {
	status, configs := statusOnly()
	configs.Records = append(configs.Records, status.Records...)
	offsetsOnly := &inspect.Dataset{Topics: status.Topics}
	calls := 0
	others := func() (*inspect.Dataset, error) { calls++; return configs, nil }
	for name, kind := range map[string]string{"out": "sink", "nosuch": ""} {
		calls = 0
		_, err := Decode(offsetsOnly, Options{Connector: name}).OffsetsView(Query{Type: "source", Others: others})
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Kind != kind || calls != 1 {
			t.Errorf("offsets --connector %s: %v, Others read %d times", name, err, calls)
		}
	}
	calls = 0
	res, err := Decode(offsetsOnly, Options{Connector: "in"}).OffsetsView(Query{Type: "source", Others: others})
	if err != nil || len(res.Offsets) != 0 || calls != 1 {
		t.Errorf("offsets --connector in --type source (no offsets yet): %+v %v, Others read %d times", res, err, calls)
	}
}

// A view accounts for the input's problems that concern it: records of no
// internal topic and bad entries of its own topic, counted as read.
func TestViewsAccountForProblems(t *testing.T) {
	status, configs := statusOnly()
	ds := &inspect.Dataset{Topics: status.Topics, Records: append(append(configs.Records, status.Records...),
		inspect.Record{Topic: "elsewhere", Key: []byte("k"), Value: []byte("v")}),
		Problems: []inspect.Problem{{Topic: status.Topics.Status, Partition: -1, Offset: -1, Reason: "bad line"}}}
	st, err := Decode(ds, Options{}).StatusView(Query{})
	if err != nil || st.Records.Problems != 2 || len(st.Problems) != 2 || st.Records.Read != 4 {
		t.Errorf("status: %+v %+v %v", st.Records, st.Problems, err)
	}
	cf, err := Decode(ds, Options{}).ConfigsView(Query{})
	if err != nil || cf.Records.Problems != 1 || len(cf.Problems) != 1 || cf.Records.Read != 3 {
		t.Errorf("configs: %+v %+v %v", cf.Records, cf.Problems, err)
	}
	cs, err := Decode(ds, Options{}).ConnectorsView(Query{})
	if err != nil || cs.Records.Problems != 2 {
		t.Errorf("connectors: %+v %v", cs.Records, err)
	}
}
