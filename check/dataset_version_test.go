package check

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// The checks decode the status topic as the workers' release does: a late
// UNASSIGNED hides a running task only before 3.6.0 (KAFKA-12525).
func TestDecodeAsFollowsVersion(t *testing.T) {
	status := func(off int64, state, worker string) inspect.Record {
		return inspect.Record{Topic: "connect-status", Offset: off, Key: []byte("status-task-c-0"),
			Value: []byte(`{"state":"` + state + `","trace":null,"worker_id":"` + worker + `","generation":7}`)}
	}
	ds := &inspect.Dataset{Topics: inspect.DefaultTopicNames(), Records: []inspect.Record{
		status(0, "RUNNING", "w2:8083"), status(1, "UNASSIGNED", "w1:8083"),
	}}
	for version, want := range map[string]string{"": "RUNNING", "3.6.0": "RUNNING", "3.5.2": "UNASSIGNED"} {
		v, _ := kafkaversion.Parse(version)
		d := DecodeAs(ds, v)
		if len(d.Status().Tasks) != 1 || d.Status().Tasks[0].State != want {
			t.Errorf("--kafka-version %q: tasks %+v, want one %s", version, d.Status().Tasks, want)
		}
	}
}
