package check

import (
	"testing"

	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan"
)

func workerWithDelay(t *testing.T, delay string) *workerconfig.Config {
	t.Helper()
	w, err := workerconfig.Parse("w.properties", []byte("group.id=connect-cluster\nconfig.storage.topic=c\noffset.storage.topic=o\nstatus.storage.topic=s\nsession.timeout.ms=10000\nscheduled.rebalance.max.delay.ms="+delay+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func findingsOf(rep *TimeoutsReport, id string) []Finding {
	var out []Finding
	for _, f := range rep.Findings {
		if f.Rule == id {
			out = append(out, f)
		}
	}
	return out
}

// The classic case: with 90 s restarts the 5-minute delay is beaten on both
// costs (delay 0: 270 task-s instead of 11,784, 12 s crash outage instead of
// 5m12s); a delay of 0 is not; without the group or the restart time D7
// does not run.
func TestD7DelayBeatenByAdvice(t *testing.T) {
	st := plan.SyntheticState(plan.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
	in := TimeoutsInput{Workers: []*workerconfig.Config{workerWithDelay(t, "300000")}, Cluster: &st, RestartTimeMs: 90000, KafkaVersion: "3.9.0"}
	rep, err := Timeouts(in)
	if err != nil {
		t.Fatal(err)
	}
	d7 := findingsOf(rep, "D7")
	if len(d7) != 1 {
		t.Fatalf("%d D7 findings, want 1: %+v", len(d7), rep.Findings)
	}
	v := d7[0].Values
	if v["recommended_delay_ms"] != int64(0) || v["roll_task_ms_not_running"] != int64(11784000) || v["recommended_roll_task_ms_not_running"] != int64(270000) ||
		v["crash_outage_ms"] != int64(312000) || v["recommended_crash_outage_ms"] != int64(12000) {
		t.Errorf("D7 values %v", v)
	}
	in.Workers = []*workerconfig.Config{workerWithDelay(t, "0")}
	if rep, err = Timeouts(in); err != nil || len(findingsOf(rep, "D7")) != 0 {
		t.Errorf("delay 0: %v, D7 %+v", err, findingsOf(rep, "D7"))
	}
	in.Workers = []*workerconfig.Config{workerWithDelay(t, "300000")}
	for name, in := range map[string]TimeoutsInput{
		"no group":        {Workers: in.Workers, RestartTimeMs: 90000},
		"no restart time": {Workers: in.Workers, Cluster: &st},
	} {
		if rep, err := Timeouts(in); err != nil || len(findingsOf(rep, "D7")) != 0 {
			t.Errorf("%s: %v, D7 %+v", name, err, findingsOf(rep, "D7"))
		}
	}
}
