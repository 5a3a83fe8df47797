package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/connectscope/connectscope/sandbox"
)

const (
	workersDir   = "../inspect/workerconfig/testdata/workers"
	clusterSnap  = "../check/testdata/cluster.snapshot.json"
	apacheWorker = workersDir + "/apache-kafka-connect-distributed.properties"
)

func writeCheckWorker(t *testing.T, name, extra string) string {
	t.Helper()
	data, err := os.ReadFile(apacheWorker)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, append(data, []byte("\n"+extra)...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckTimeoutsExitStatus(t *testing.T) {
	t.Parallel()
	// Apache's sample file: only info findings (defaults), so exit 0 at --fail-on error …
	out, stderr, code := run(t, "check", "timeouts", "--worker-config", apacheWorker)
	if code != 0 || !strings.Contains(out, "session.timeout.ms") || !strings.Contains(out, "10000 (default)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	// … and 1 at --fail-on info, with one line on stderr.
	_, stderr, code = run(t, "check", "timeouts", "--worker-config", apacheWorker, "--fail-on", "info")
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "findings at or above info") {
		t.Fatalf("fail-on info: exit %d, stderr %q", code, stderr)
	}
}

func TestCheckTimeoutsUnitInFile(t *testing.T) {
	t.Parallel()
	path := writeCheckWorker(t, "w1.properties", "session.timeout.ms=30s\n")
	out, _, code := run(t, "check", "timeouts", "--worker-config", path, "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var rep check.TimeoutsReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "T11" && strings.Contains(f.Message, path) && strings.Contains(f.Message, `session.timeout.ms = "30s"`) {
			found = true
		}
	}
	if !found || rep.Summary.Error == 0 {
		t.Errorf("no T11 naming file, key and value: %+v", rep.Findings)
	}
}

func TestCheckJQRunbook(t *testing.T) {
	t.Parallel() // waits on the network mostly
	// The files name a cluster nothing answers for (not Apache's
	// localhost:9092, where a developer's Kafka may listen): check all runs
	// what needs no cluster and says why the rest did not.
	refused := "bootstrap.servers=" + refusedAddr(t) + "\n"
	w1 := writeCheckWorker(t, "w1.properties", refused)
	w2 := writeCheckWorker(t, "w2.properties", refused+"status.storage.topic=connect-statuses\nheartbeat.interval.ms=4000\n")
	out, _, code := run(t, "check", "all", "--worker-config", w1, "--worker-config", w2, "--timeout", "1s", "--fail-on", "warn",
		"-o", "json", "--jq", `[.findings[] | select(.severity != "info") | .rule] | unique | join(",")`)
	if code != 1 || strings.TrimSpace(out) != "K4,T12,T2" {
		t.Errorf("exit %d, out %q", code, out)
	}
}

func TestCheckUsageErrors(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"check", "timeouts", "--worker-config", apacheWorker, "--fail-on", "fatal"},
		{"check", "timeouts", "--worker-config", apacheWorker, "--restart-time", "5 parsecs"},
		{"check", "timeouts", "--worker-config", apacheWorker, "--kafka-version", "three"},
		{"check", "upgrade", "--worker-config", apacheWorker, "--target", "cooperative"},
		{"check", "upgrade", "--worker-config", apacheWorker, "--exactly-once", "on"},
		{"check", "upgrade", "--worker-config", apacheWorker, "--target", "eager", "--exactly-once", "enabled"},
		{"check", "timeouts"},
		{"check", "explain"},
		{"check", "explain", "Z9"},
		{"check", "all"},
	}
	for _, args := range cases {
		out, stderr, code := run(t, args...)
		if code != 2 || out != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
}

func TestCheckInputErrors(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"check", "timeouts", "--worker-config", "no/such/worker.properties"},
		{"check", "balance", "--from", "no/such/snapshot.json"},
		{"check", "balance", "--from", clusterSnap, "--zones", "no/such/zones"},
	}
	for _, args := range cases {
		_, stderr, code := run(t, args...)
		if code != 3 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestCheckRulesAndExplain(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "check", "rules", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var cat check.Catalogue
	if err := json.Unmarshal([]byte(out), &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Rules) != len(check.Rules()) || cat.Rules[0].ID != "T1" || cat.Rules[0].Why == "" {
		t.Errorf("catalogue: %d rules", len(cat.Rules))
	}
	out, _, code = run(t, "check", "explain", "t6")
	if code != 0 || !strings.Contains(out, "poll timeout") || !strings.Contains(out, "Rule T6") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "check", "rules", "-o", "wide")
	if code != 0 || !strings.Contains(out, "KAFKA-15693") {
		t.Errorf("wide catalogue lacks the reasons: exit %d", code)
	}
}

func TestCheckBalanceFromSnapshot(t *testing.T) {
	t.Parallel()
	zones := filepath.Join(t.TempDir(), "zones")
	if err := os.WriteFile(zones, []byte("10.0.0.1:8083=a\n10.0.0.2:8083=a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, "check", "balance", "--from", clusterSnap, "--zones", zones, "--capacity", "2", "-o", "json", "--jq", ".findings[].rule")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := strings.Fields(out); strings.Join(got, " ") != "B5 B2 B3 B4 B7" {
		t.Errorf("rules %v", got)
	}
	// check topics and all run from the same snapshot.
	if _, stderr, code := run(t, "check", "topics", "--from", clusterSnap); code != 0 {
		t.Errorf("topics: exit %d %s", code, stderr)
	}
	out, _, code = run(t, "check", "all", "--from", clusterSnap, "-o", "json", "--jq", "[.checks[] | select(.ran) | .check] | join(\",\")")
	if code != 1 || strings.TrimSpace(out) != "upgrade,topics,balance" {
		t.Errorf("all: exit %d out %q", code, out)
	}
	// check names the setting it lacked; the reason printed names the flag.
	out, _, _ = run(t, "check", "all", "--from", clusterSnap, "-o", "json", "--jq", `.checks[] | select(.check == "timeouts") | .reason`)
	if want := "no worker files given (--worker-config)"; strings.TrimSpace(out) != want {
		t.Errorf("timeouts skipped because %s, want %s", strings.TrimSpace(out), want)
	}
}

// The checks read a live cluster: the sandbox's kfake broker with simulated
// workers, one of them still on the compatible protocol.
func TestCheckLiveSandbox(t *testing.T) {
	t.Parallel()
	ctx, c := testSandbox(t)
	w1, err := c.AddWorker(ctx, "", "compatible")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := c.AddWorker(ctx, "", "sessioned")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []sandbox.ConnectorSpec{{Name: "orders", Tasks: 4}, {Name: "audit", Kind: sandbox.KindSink, Tasks: 2}} {
		if err := c.AddConnector(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	file := func(name, worker, protocol string) string {
		return writeCheckWorker(t, name, "rest.advertised.host.name="+worker+"\nrest.advertised.port=8083\nconnect.protocol="+protocol+"\n")
	}
	f1, f2 := file("w1.properties", w1, "compatible"), file("w2.properties", w2, "sessioned")
	live := []string{"-b", c.Bootstrap()}

	out, stderr, code := run(t, append(live, "check", "upgrade", "--target", "sessioned", "--kafka-version", "3.9.0",
		"--worker-config", f1, "--worker-config", f2, "-o", "json")...)
	if code != 0 {
		t.Fatalf("upgrade: exit %d: %s", code, stderr)
	}
	var up check.UpgradeReport
	if err := json.Unmarshal([]byte(out), &up); err != nil {
		t.Fatal(err)
	}
	if up.GroupProtocol == nil || *up.GroupProtocol != "compatible" || up.ProtocolNow != "compatible" ||
		strings.Join(up.HeldBackBy, ",") != "w1.properties" || len(up.Steps) != 1 || up.Steps[0].Worker != "w1.properties" ||
		up.Steps[0].ProtocolAfter != "sessioned" || !findingRule(up.Findings, "P3") || findingRule(up.Findings, "P13") {
		t.Errorf("upgrade report: %s", out)
	}

	out, stderr, code = run(t, append(live, "check", "balance", "--capacity", "6", "-o", "json")...)
	if code != 0 {
		t.Fatalf("balance: exit %d: %s\n%s", code, stderr, out)
	}
	var bal check.BalanceReport
	if err := json.Unmarshal([]byte(out), &bal); err != nil {
		t.Fatal(err)
	}
	if len(bal.Workers) != 2 || bal.Workers[0].Tasks+bal.Workers[1].Tasks != 6 || findingRule(bal.Findings, "B5") || findingRule(bal.Findings, "B9") {
		t.Errorf("balance report: %s", out)
	}

	out, _, _ = run(t, append(live, "check", "topics", "-o", "json")...)
	var top check.TopicsReport
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatalf("topics: %v: %s", err, out)
	}
	if len(top.Topics) != 3 || top.Topics[0].Partitions == nil || *top.Topics[0].Partitions != 1 || findingRule(top.Findings, "K1") || findingRule(top.Findings, "K12") {
		t.Errorf("topics report: %s", out)
	}

	out, _, _ = run(t, append(live, "check", "all", "--kafka-version", "3.9.0", "--worker-config", f1, "--worker-config", f2,
		"-o", "json", "--jq", "[.checks[] | select(.ran) | .check] | join(\",\")")...)
	if strings.TrimSpace(out) != "timeouts,upgrade,topics,balance" {
		t.Errorf("all ran %q", out)
	}
}

func findingRule(list []check.Finding, id string) bool {
	for _, f := range list {
		if f.Rule == id {
			return true
		}
	}
	return false
}

// When only the worker files point at a cluster that cannot be read, the
// "why not" of the checks that need it says so, as the note does.
func TestCheckAllUnreadClusterReason(t *testing.T) {
	t.Parallel() // waits on the network mostly
	closed := kafkatest.RefusedAddr(t)
	w := filepath.Join(t.TempDir(), "worker.properties")
	if err := os.WriteFile(w, []byte("bootstrap.servers="+closed+"\ngroup.id=connect-cluster\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := run(t, "check", "all", "--worker-config", w, "--timeout", "1s", "-o", "json", "--jq",
		`[.checks[] | select(.check == "topics" or .check == "balance") | .reason] | join("|")`)
	want := "the cluster of the worker files' bootstrap.servers could not be read"
	if got := strings.TrimSpace(out); got != want+"|"+want {
		t.Errorf("reasons %q (stderr %q), want both %q", got, stderr, want)
	}
}
