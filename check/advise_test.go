package check

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan/cluster"
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
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
	in := TimeoutsInput{Workers: []*workerconfig.Config{workerWithDelay(t, "300000")}, Cluster: &st, RestartTimeMs: 90000, KafkaVersion: kafkaversion.New(3, 9, 0)}
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

// workerFile is a worker of the group with a 10 s session and props.
func workerFile(t *testing.T, name, props string) *workerconfig.Config {
	t.Helper()
	return worker(t, name, "session.timeout.ms=10000\n"+props)
}

// classicWithHosts is the classic 6-worker cluster whose members advertise
// w1:8083 … w6:8083 (w1 leads), so worker files can be matched to them.
func classicWithHosts() cluster.State {
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3})
	for i := range st.Workers {
		st.Workers[i].Aliases = []string{st.Workers[i].ID + ":8083"}
	}
	return st
}

// D7 is one cluster-level finding, not one per worker file; it costs the
// delay that applies (the leader's), says what the cheaper delay costs in
// moves, and is info. Before, five files on the default delay gave five
// identical warnings, and a file whose worker does not lead was costed as
// if its delay applied.
func TestD7OnceWithTheLeadersDelay(t *testing.T) {
	st := classicWithHosts()
	var same []*workerconfig.Config
	for _, n := range []string{"w1", "w2", "w3", "w4", "w5"} {
		same = append(same, workerFile(t, n+".properties", ""))
	}
	in := TimeoutsInput{Workers: same, Cluster: &st, RestartTimeMs: 90000, KafkaVersion: kafkaversion.New(3, 9, 0)}
	rep, err := Timeouts(in)
	if err != nil {
		t.Fatal(err)
	}
	d7 := findingsOf(rep, "D7")
	if len(d7) != 1 {
		t.Fatalf("%d D7 findings for 5 files on one delay, want 1: %+v", len(d7), d7)
	}
	if d7[0].Severity != Info || !strings.Contains(d7[0].Message, "but the roll moves 85 tasks to another machine instead of 63") {
		t.Errorf("D7 %s: %q", d7[0].Severity, d7[0].Message)
	}
	if n := len(findingsOf(rep, "D5")); n != 1 {
		t.Errorf("D5 repeated %d times for one setting in 5 files", n)
	}
	// The leader's file (advertising w1:8083) has a delay of 0: nothing to
	// advise, whatever the other files say.
	lead := func(delay string) *workerconfig.Config {
		return workerFile(t, "leader.properties", "rest.advertised.host.name=w1\nrest.advertised.port=8083\nscheduled.rebalance.max.delay.ms="+delay+"\n")
	}
	in.Workers = append([]*workerconfig.Config{lead("0")}, same[1:]...)
	if rep, err = Timeouts(in); err != nil || len(findingsOf(rep, "D7")) != 0 {
		t.Errorf("leader on delay 0: %v, D7 %+v", err, findingsOf(rep, "D7"))
	}
	in.Workers = []*workerconfig.Config{lead("300000"), workerFile(t, "w2.properties", "scheduled.rebalance.max.delay.ms=0\n")}
	rep, err = Timeouts(in)
	if d7 = findingsOf(rep, "D7"); err != nil || len(d7) != 1 || d7[0].Subject != "leader w1:8083" || !strings.Contains(d7[0].Message, "the leader's, leader.properties") {
		t.Errorf("leader on the default: %v, D7 %+v", err, d7)
	}
	// Leader unknown and the files differ: each setting as if its worker led.
	in.Workers = []*workerconfig.Config{workerFile(t, "a.properties", ""), workerFile(t, "b.properties", "scheduled.rebalance.max.delay.ms=600000\n"), workerFile(t, "c.properties", "")}
	rep, err = Timeouts(in)
	d7 = findingsOf(rep, "D7")
	if err != nil || len(d7) != 2 {
		t.Fatalf("two settings, leader unknown: %v, %d D7: %+v", err, len(d7), d7)
	}
	subjects := d7[0].Subject + " | " + d7[1].Subject
	if !strings.Contains(subjects, "a.properties, c.properties (if one of them leads)") || !strings.Contains(subjects, "b.properties (if its worker leads)") {
		t.Errorf("subjects %q", subjects)
	}
}
