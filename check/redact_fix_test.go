package check

import (
	"strings"
	"testing"
)

// A finding's fix may quote the connector's setting it asks to change: the
// credential in it is redacted as in the message.
func TestRedactFindingsCoversTheFix(t *testing.T) {
	f := []Finding{{Message: "m", Fix: "set connection.url=jdbc:postgresql://db/x?password=hunter2&ssl=true"}}
	RedactFindings(f)
	if strings.Contains(f[0].Fix, "hunter2") {
		t.Errorf("fix keeps the password: %s", f[0].Fix)
	}
}
