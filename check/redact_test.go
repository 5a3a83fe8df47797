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
