package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

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
// do not trigger it, a value set in the file does.
func TestS5NotOnKafkaDefaults(t *testing.T) {
	for text, want := range map[string]bool{
		"": false,
		"task.shutdown.graceful.timeout.ms=6000\n":  true,
		"offset.flush.timeout.ms=4000\n":            true,
		"task.shutdown.graceful.timeout.ms=10000\n": false,
	} {
		rep, err := Timeouts(TimeoutsInput{Workers: []*workerconfig.Config{worker(t, "a.properties", text)}, KafkaVersion: kafkaversion.New(3, 9, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if got := hasRule(rep.Findings, "S5"); got != want {
			t.Errorf("%q: S5 %v, want %v", text, got, want)
		}
	}
}

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
