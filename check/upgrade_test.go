package check

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

func worker(t *testing.T, name, extra string) *workerconfig.Config {
	t.Helper()
	w, err := workerconfig.Parse(name, []byte("group.id=connect-cluster\nconfig.storage.topic=c\noffset.storage.topic=o\nstatus.storage.topic=s\n"+extra))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestUpgradeEagerToSessioned(t *testing.T) {
	ws := []*workerconfig.Config{
		worker(t, "w3.properties", ""),
		worker(t, "w1.properties", "connect.protocol=eager\n"),
		worker(t, "w2.properties", "connect.protocol=eager\n"),
	}
	rep, err := Upgrade(UpgradeInput{Workers: ws, Target: "sessioned"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProtocolNow != "eager" || strings.Join(rep.HeldBackBy, ",") != "w1.properties,w2.properties" {
		t.Errorf("now %s held by %v", rep.ProtocolNow, rep.HeldBackBy)
	}
	if !strings.Contains(rep.Reason, "w1.properties, w2.properties offer at most eager") {
		t.Errorf("reason: %s", rep.Reason)
	}
	got := []string{}
	for _, s := range rep.Steps {
		got = append(got, fmt.Sprintf("%d %s %s→%s %s", s.Step, s.Worker, s.From, s.To, s.ProtocolAfter))
	}
	want := []string{"1 w1.properties eager→sessioned eager", "2 w2.properties eager→sessioned sessioned"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("steps\n got %q\nwant %q", got, want)
	}
	if rep.ProtocolFinal != "sessioned" || !hasRule(rep.Findings, "P2") {
		t.Errorf("final %s findings %v", rep.ProtocolFinal, ruleIDs(rep.Findings))
	}
	if rep.Workers[0].Worker != "w1.properties" {
		t.Errorf("workers not sorted: %v", rep.Workers)
	}
}

func TestUpgradeDowngradeTurnsExactlyOnceOffFirst(t *testing.T) {
	ws := []*workerconfig.Config{
		worker(t, "a.properties", "exactly.once.source.support=enabled\n"),
		worker(t, "b.properties", "exactly.once.source.support=enabled\n"),
	}
	rep, err := Upgrade(UpgradeInput{Workers: ws, Target: "compatible"})
	if err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, s := range rep.Steps {
		seq = append(seq, s.Worker+":"+s.Setting+"="+s.To)
		if strings.Contains(s.ExactlyOnceAfter, "enabled") && strings.Contains(s.ExactlyOnceAfter, "disabled") {
			t.Errorf("step %d mixes enabled and disabled: %s", s.Step, s.ExactlyOnceAfter)
		}
		if s.Setting == "connect.protocol" && s.ExactlyOnceAfter != "disabled" {
			t.Errorf("protocol lowered while exactly-once is %s", s.ExactlyOnceAfter)
		}
	}
	want := "a.properties:exactly.once.source.support=preparing b.properties:exactly.once.source.support=preparing " +
		"a.properties:exactly.once.source.support=disabled b.properties:exactly.once.source.support=disabled " +
		"a.properties:connect.protocol=compatible b.properties:connect.protocol=compatible"
	if strings.Join(seq, " ") != want {
		t.Errorf("plan %v", seq)
	}
	if rep.ProtocolFinal != "compatible" || rep.Steps[4].ProtocolAfter != "compatible" {
		t.Errorf("final %s", rep.ProtocolFinal)
	}
}

func TestUpgradeEnablesExactlyOnceInTwoRolls(t *testing.T) {
	ws := []*workerconfig.Config{worker(t, "a.properties", "connect.protocol=compatible\n"), worker(t, "b.properties", "")}
	rep, err := Upgrade(UpgradeInput{Workers: ws, Target: "sessioned", ExactlyOnce: "enabled", KafkaVersion: kafkaversion.New(3, 2, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, s := range rep.Steps {
		seq = append(seq, fmt.Sprintf("%s:%s=%s(%s,%s,%v)", s.Worker, s.Setting, s.To, s.ProtocolAfter, s.ExactlyOnceAfter, format.TextOr(s.KafkaAtLeast, "-")))
	}
	want := []string{
		"a.properties:connect.protocol=sessioned(sessioned,disabled,-)",
		"a.properties:exactly.once.source.support=preparing(sessioned,disabled 1/2, preparing 1/2,3.3.0)",
		"b.properties:exactly.once.source.support=preparing(sessioned,preparing,3.3.0)",
		"a.properties:exactly.once.source.support=enabled(sessioned,preparing 1/2, enabled 1/2,-)",
		"b.properties:exactly.once.source.support=enabled(sessioned,enabled,-)",
	}
	if strings.Join(seq, "|") != strings.Join(want, "|") {
		t.Errorf("plan\n got %q\nwant %q", seq, want)
	}
	if !hasRule(rep.Findings, "P12") || !hasRule(rep.Findings, "P3") {
		t.Errorf("findings %v", ruleIDs(rep.Findings))
	}
}

func TestUpgradeNeedsNewerKafka(t *testing.T) {
	rep, err := Upgrade(UpgradeInput{Workers: []*workerconfig.Config{worker(t, "a.properties", "")}, Target: "sessioned", KafkaVersion: kafkaversion.New(2, 3, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProtocolNow != "compatible" || len(rep.Steps) != 1 || format.TextOr(rep.Steps[0].KafkaAtLeast, "-") != "2.4.0" {
		t.Errorf("now %s steps %+v", rep.ProtocolNow, rep.Steps)
	}
}

func TestUpgradeGroupSaysOtherwise(t *testing.T) {
	in := UpgradeInput{Workers: []*workerconfig.Config{worker(t, "a.properties", "")}, Target: "sessioned", GroupProtocol: "default",
		Members: []UpgradeMember{{MemberID: "m1", WorkerID: "10.0.0.5:8083", MetadataVersion: 0}}}
	rep, err := Upgrade(in)
	if err != nil {
		t.Fatal(err)
	}
	// The file relies on the default listener (port 8083 of its machine):
	// the one member on 8083 is its worker, so no member lacks a file.
	if rep.ProtocolNow != "eager" || rep.GroupProtocol == nil || *rep.GroupProtocol != "default" || hasRule(rep.Findings, "P13") || rep.Workers[0].MemberID == nil {
		t.Errorf("%+v", rep)
	}
}

func TestUpgradeBadInput(t *testing.T) {
	for _, in := range []UpgradeInput{
		{Target: "cooperative"},
		{Target: "sessioned", ExactlyOnce: "on"},
		{Target: "compatible", ExactlyOnce: "enabled"},
	} {
		if _, err := Upgrade(in); err == nil {
			t.Errorf("%+v accepted", in)
		}
	}
}

// Property: whatever the workers and target, no step leaves the group below
// both where it started and where it goes, and the plan ends on the target.
func TestUpgradeNeverWorsens(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	protocols := []string{"", "eager", "compatible", "sessioned"}
	eos := []string{"", "disabled", "preparing", "enabled"}
	targets := []string{"eager", "compatible", "sessioned"}
	for i := 0; i < 500; i++ {
		var ws []*workerconfig.Config
		for j := 0; j < 1+r.Intn(5); j++ {
			extra := ""
			if p := protocols[r.Intn(4)]; p != "" {
				extra += "connect.protocol=" + p + "\n"
			}
			if e := eos[r.Intn(4)]; e != "" {
				extra += "exactly.once.source.support=" + e + "\n"
			}
			ws = append(ws, worker(t, fmt.Sprintf("w%d.properties", j), extra))
		}
		target := targets[r.Intn(3)]
		want := ""
		if target == "sessioned" {
			want = eos[r.Intn(4)]
		}
		rep, err := Upgrade(UpgradeInput{Workers: ws, Target: Protocol(target), ExactlyOnce: want})
		if err != nil {
			t.Fatal(err)
		}
		floor := min(protocolRank[rep.ProtocolNow], protocolRank[target])
		for _, s := range rep.Steps {
			if protocolRank[s.ProtocolAfter] < floor {
				t.Fatalf("case %d: step %d leaves the group on %s (start %s, target %s)", i, s.Step, s.ProtocolAfter, rep.ProtocolNow, target)
			}
			if strings.Contains(s.ExactlyOnceAfter, "enabled") && strings.Contains(s.ExactlyOnceAfter, "disabled") && !startsMixed(ws) {
				t.Fatalf("case %d: step %d mixes enabled and disabled", i, s.Step)
			}
		}
		if rep.ProtocolFinal != target {
			t.Fatalf("case %d: plan ends on %s, not %s", i, rep.ProtocolFinal, target)
		}
	}
}

func startsMixed(ws []*workerconfig.Config) bool {
	seen := map[string]bool{}
	for _, w := range ws {
		seen[eosOf(w)] = true
	}
	return seen["enabled"] && seen["disabled"]
}

func TestWorkerIDOf(t *testing.T) {
	cases := map[string]string{
		"rest.advertised.host.name=h1\nrest.advertised.port=8083\n": "h1:8083",
		"listeners=http://h2:8084\n":                                "h2:8084",
		"rest.advertised.host.name=h3\nlisteners=https://:8443\n":   "h3:8443",
		"": "",
	}
	for text, want := range cases {
		if got := WorkerIDOf(worker(t, "w", text)); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

// Workers and steps carry the HOST:PORT a script joins with plans and
// inspect status: the member's worker id, else what the file advertises.
func TestUpgradeNamesWorkers(t *testing.T) {
	in := UpgradeInput{Workers: []*workerconfig.Config{worker(t, "a.properties", "connect.protocol=compatible\n"),
		worker(t, "b.properties", "connect.protocol=compatible\nrest.advertised.host.name=w2\nrest.advertised.port=8084\n")},
		Target: "sessioned", Members: []UpgradeMember{{MemberID: "m1", WorkerID: "10.0.0.5:8083", MetadataVersion: 1}}}
	rep, err := Upgrade(in)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, w := range rep.Workers {
		names[w.Worker] = format.TextOr(w.Name, "-")
	}
	if names["a.properties"] != "10.0.0.5:8083" || names["b.properties"] != "w2:8084" {
		t.Errorf("worker names %v", names)
	}
	for _, s := range rep.Steps {
		if format.TextOr(s.Name, "-") != names[s.Worker] {
			t.Errorf("step %d of %s named %s", s.Step, s.Worker, format.TextOr(s.Name, "-"))
		}
	}
	if len(rep.Steps) != 2 {
		t.Errorf("%d steps", len(rep.Steps))
	}
}

// The group running a higher protocol than the files say means a member

// offers more than its file, and the reason must say so.
func TestUpgradeReasonDirection(t *testing.T) {
	in := UpgradeInput{Workers: []*workerconfig.Config{worker(t, "a.properties", "connect.protocol=compatible\nrest.advertised.host.name=h\nrest.advertised.port=8083\n")},
		Target: "sessioned", GroupProtocol: "sessioned", KafkaVersion: kafkaversion.New(3, 9, 0),
		Members: []UpgradeMember{{MemberID: "m1", WorkerID: "h:8083", MetadataVersion: 2}}}
	rep, err := Upgrade(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Reason, "offers more than its file says") || strings.Contains(rep.Reason, "offers less") {
		t.Errorf("reason %q", rep.Reason)
	}
	in.Workers = []*workerconfig.Config{worker(t, "a.properties", "connect.protocol=sessioned\nrest.advertised.host.name=h\nrest.advertised.port=8083\n")}
	in.GroupProtocol = "compatible"
	if rep, _ = Upgrade(in); !strings.Contains(rep.Reason, "offers less than its file says") {
		t.Errorf("reason %q", rep.Reason)
	}
}

// Without any worker file, P13 is one finding for the group, not one per member.
func TestP13OnceWithoutWorkerFiles(t *testing.T) {
	in := UpgradeInput{Target: "sessioned", GroupProtocol: "sessioned", KafkaVersion: kafkaversion.New(3, 9, 0),
		Members: []UpgradeMember{{MemberID: "m1", WorkerID: "h1:8083", MetadataVersion: 2}, {MemberID: "m2", WorkerID: "h2:8083", MetadataVersion: 2}, {MemberID: "m3", WorkerID: "h3:8083", MetadataVersion: 2}}}
	rep, err := Upgrade(in)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Rule == "P13" {
			n++
			if !strings.Contains(f.Message, "3 members") {
				t.Errorf("P13 message %q should count the members", f.Message)
			}
			// The HOST:PORT names flags take, beside the member ids.
			if got := fmt.Sprint(f.Values["workers"]); got != "[h1:8083 h2:8083 h3:8083]" {
				t.Errorf("P13 workers %s, want the members' HOST:PORT", got)
			}
		}
	}
	if n != 1 {
		t.Errorf("P13 fired %d times, want once", n)
	}
	// With files for some members, each member without one is still named.
	in.Workers = []*workerconfig.Config{worker(t, "h1.properties", "rest.advertised.host.name=h1\nrest.advertised.port=8083\n")}
	rep, _ = Upgrade(in)
	n = 0
	for _, f := range rep.Findings {
		if f.Rule == "P13" {
			n++
			if w, _ := f.Values["worker"].(*string); w == nil || !strings.HasSuffix(*w, ":8083") {
				t.Errorf("P13 %s has no HOST:PORT worker: %v", f.Subject, f.Values)
			}
		}
	}
	if n != 2 {
		t.Errorf("P13 with one file of three: %d findings, want 2", n)
	}
}

// S5 is about a choice the operator made: Kafka's own defaults (5000/5000)

// Connect's default listener is http://:8083: a file without rest.advertised.*

// and listeners is a worker on port 8083 of its own machine, matched to the

// member on that port whose host the file is named after.
func TestWorkerFileMatchedOnDefaultListener(t *testing.T) {
	members := []UpgradeMember{{MemberID: "m1", WorkerID: "worker-1:8083", MetadataVersion: 2}, {MemberID: "m2", WorkerID: "worker-2:8083", MetadataVersion: 2}}
	files := []*workerconfig.Config{worker(t, "/etc/kafka/worker-2.properties", ""), worker(t, "worker-1.properties", "listeners=http://:8083\n")}
	rep, err := Upgrade(UpgradeInput{Workers: files, Members: members, Target: "sessioned", GroupProtocol: "sessioned", KafkaVersion: kafkaversion.New(3, 9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if hasRule(rep.Findings, "P13") {
		t.Errorf("P13: a member without a file, though both files match: %+v", rep.Findings)
	}
	for _, w := range rep.Workers {
		if w.MemberID == nil {
			t.Errorf("worker %s matched no member", w.Worker)
		}
	}
	// One file, one member on port 8083: matched whatever the file is called.
	rep, _ = Upgrade(UpgradeInput{Workers: []*workerconfig.Config{worker(t, "connect.properties", "")}, Members: members[:1], Target: "sessioned", GroupProtocol: "sessioned", KafkaVersion: kafkaversion.New(3, 9, 0)})
	if len(rep.Workers) != 1 || rep.Workers[0].MemberID == nil {
		t.Errorf("single file and member: %+v", rep.Workers)
	}
}
