package check

import (
	"bytes"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/rest"
)

func TestParseRelease(t *testing.T) {
	for in, want := range map[string]string{"4.x": "4.4.0", "4": "4.4.0", "4.0": "4.0.0", "4.2": "4.2.0", "4.4": "4.4.0", "4.1.1": "4.1.1", "5.0": "5.0.0", "5": "5.0.0"} {
		if v, err := ParseRelease(in); err != nil || v.String() != want {
			t.Errorf("%s: %v %v, want %s", in, v, err, want)
		}
	}
	for _, in := range []string{"", "3.9", "6.0", "5.1", "four", "4.10", "4.5", "4.5.1"} {
		if _, err := ParseRelease(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// --to adds the release findings and the workers asked to the protocol report.
func TestUpgradeReportWithRelease(t *testing.T) {
	rep, err := Upgrade(UpgradeInput{Target: "sessioned"})
	if err != nil {
		t.Fatal(err)
	}
	v := "3.9.2"
	rel, err := Release(ReleaseInput{To: kafkaversion.New(4, 4, 0), Workers: []rest.WorkerInfo{{Worker: "w1:8083", Version: &v}},
		Connectors: []ConnectorInfo{{Name: "c", Config: map[string]string{"connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector", "groups.blacklist": "x"}}}})
	if err != nil {
		t.Fatal(err)
	}
	rep.AddRelease(rel)
	if rep.To == nil || *rep.To != "4.4.0" || len(rep.RESTWorkers) != 1 || rep.Summary.Error != 1 || rep.Findings[0].Rule != "U1" {
		t.Fatalf("%+v", rep)
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, rep, format.Options{}); err != nil {
		t.Fatal(err)
	}
	if out := strings.ToLower(buf.String()); !strings.Contains(out, "workers asked (rest) for 4.4.0") || !strings.Contains(out, "u1") {
		t.Errorf("table:\n%s", buf.String())
	}
}
