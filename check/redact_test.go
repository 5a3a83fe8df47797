package check

import (
	"encoding/json"
	"strings"
	"testing"
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
