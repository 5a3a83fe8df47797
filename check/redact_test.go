package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

func TestFindingsRedactSecrets(t *testing.T) {
	fs := []Finding{{
		Rule: "T1", Subject: "connector jdbc (jdbc:postgresql://app:UrlPw@db/x)",
		Message: "cannot reach mongodb://u:MongoPw@h/db with Authorization: Bearer TokPw",
		Values:  map[string]any{"connection.password": "Pw1", "sasl.jaas.config": "x password=\"JaasPw\";", "consumer.session.timeout.ms": int64(5)},
	}}
	RedactFindings(fs)
	b, _ := json.Marshal(fs)
	for _, secret := range []string{"UrlPw", "MongoPw", "TokPw", "Pw1", "JaasPw"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("%s survives: %s", secret, b)
		}
	}
	if fs[0].Values["consumer.session.timeout.ms"] != int64(5) {
		t.Errorf("a plain value changed: %v", fs[0].Values)
	}
}

// A finding's fix may quote the connector's setting it asks to change: the
// credential in it is redacted as in the message.
func TestRedactFindingsCoversTheFix(t *testing.T) {
	f := []Finding{{Message: "m", Fix: "set connection.url=jdbc:postgresql://db/x?password=hunter2&ssl=true"}}
	RedactFindings(f)
	if strings.Contains(f[0].Fix, "hunter2") {
		t.Errorf("fix keeps the password: %s", f[0].Fix)
	}
}

// A worker file whose group.id line ends in a backslash takes the next
// line, a password, as its group.id (as Java's Properties does): K10 and K4
// show group ids in their values' lists and as keys, where the password is
// redacted as text. A group id that merely contains a secret word ("token")
// is data: its files stay shown.
func TestFindingsRedactInsideValues(t *testing.T) {
	ws := []*workerconfig.Config{
		worker(t, "a.properties", "group.id=\\\nssl.keystore.password=Hunter2Pw\n"),
		worker(t, "b.properties", "group.id=connect-token-service\n"),
	}
	rep, err := Timeouts(TimeoutsInput{Workers: ws})
	if err != nil {
		t.Fatal(err)
	}
	RedactFindings(rep.Findings)
	b, _ := json.Marshal(rep.Findings)
	if strings.Contains(string(b), "Hunter2Pw") {
		t.Errorf("the password joined to group.id survives: %s", b)
	}
	var k10 *Finding
	for i := range rep.Findings {
		if rep.Findings[i].Rule == "K10" {
			k10 = &rep.Findings[i]
		}
	}
	if k10 == nil {
		t.Fatalf("no K10: %v", ruleIDs(rep.Findings))
	}
	if files, ok := k10.Values["connect-token-service"].([]string); !ok || !slices.Equal(files, []string{"b.properties"}) {
		t.Errorf("K10 hides the files of a group named with a secret word: %#v", k10.Values)
	}
	if _, ok := k10.Values["ssl.keystore.password="+redact.Placeholder]; !ok {
		t.Errorf("K10's key of the joined group.id is not redacted as text: %#v", k10.Values)
	}
}

// check all prints each section beside the merged findings: both are
// redacted, and so is the free text outside findings (a worker's HOST:PORT
// built from a rest.advertised.host.name that took the next line along).
func TestRedactReportReachesSections(t *testing.T) {
	ws := []*workerconfig.Config{
		worker(t, "a.properties", "rest.advertised.host.name=h\\\npassword=\"HostPw\"\nconfig.storage.topic=\\\nsasl.jaas.config=x required password=\"TopicPw\";\n"),
		worker(t, "b.properties", ""),
	}
	rep, err := All(AllInput{Workers: ws})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(rep)
	for _, s := range []string{"HostPw", "TopicPw"} {
		if !strings.Contains(string(before), s) {
			t.Fatalf("the report never held %s, so this tests nothing: %s", s, before)
		}
	}
	RedactReport(rep)
	after, _ := json.Marshal(rep)
	for _, s := range []string{"HostPw", "TopicPw"} {
		if strings.Contains(string(after), s) {
			t.Errorf("%s survives: %s", s, after)
		}
	}
	if rep.Timeouts == nil || len(rep.Timeouts.Findings) == 0 {
		t.Fatalf("no timeouts section: %s", after)
	}
}
