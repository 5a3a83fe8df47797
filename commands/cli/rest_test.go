package cli

import (
	"strings"
	"testing"
)

// What a worker answers with an error is redacted unless --show-secrets:
// the REST client the verbs build carries the redaction.
func TestRESTClientRedactsUnlessShowSecrets(t *testing.T) {
	const answer = "HTTP 500: connection.url=jdbc:postgresql://db/x?password=hunter2"
	for _, show := range []bool{false, true} {
		e := &Env{Globals: Globals{ShowSecrets: show}}
		c, err := (&RESTOptions{}).Client(e)
		if err != nil {
			t.Fatal(err)
		}
		redact := c.Options().Redact
		switch {
		case show && redact != nil:
			t.Errorf("--show-secrets: the client still redacts")
		case !show && (redact == nil || strings.Contains(redact(answer), "hunter2")):
			t.Errorf("without --show-secrets the answer keeps its password")
		}
	}
}
