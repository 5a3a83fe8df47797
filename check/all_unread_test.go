package check

import (
	"errors"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/setting"
)

// A cluster the worker files imply but that could not be read: the checks
// that need it say why they did not run, and a note quotes the error with
// the settings named as the caller names them.
func TestAllClusterUnreadNote(t *testing.T) {
	cause := setting.Errorf("no answer from %v", setting.BootstrapServers)
	rep, err := All(AllInput{ClusterErr: errors.Join(cause)})
	if err != nil {
		t.Fatal(err)
	}
	rep.NameSettings(func(s setting.Setting) string { return "FLAG(" + s.String() + ")" })
	if len(rep.Notes) == 0 {
		t.Fatal("no note")
	}
	note := rep.Notes[len(rep.Notes)-1]
	if !strings.Contains(note, "could not be read, so topics and balance did not run") || !strings.Contains(note, "FLAG(") {
		t.Errorf("note %q", note)
	}
	for _, c := range rep.Checks {
		if (c.Check == "topics" || c.Check == "balance") && (c.Reason == nil || !strings.Contains(*c.Reason, "could not be read")) {
			t.Errorf("%s: reason %v", c.Check, c.Reason)
		}
	}
}

// The note quotes the error as the error line would, redacted: a worker
// file's bootstrap.servers ending in a backslash takes the next line, a
// password, as its host, and the dial error names that host.
func TestAllClusterUnreadNoteRedacted(t *testing.T) {
	cause := errors.New("dial tcp: lookup ssl.keystore.password=Hunter2Pw: no such host")
	rep, err := All(AllInput{ClusterErr: cause})
	if err != nil {
		t.Fatal(err)
	}
	for _, named := range []bool{false, true} {
		if named {
			rep.NameSettings(func(s setting.Setting) string { return s.String() })
		}
		if note := rep.Notes[len(rep.Notes)-1]; strings.Contains(note, "Hunter2Pw") || !strings.Contains(note, "ssl.keystore.password=") {
			t.Errorf("named %v: note %q", named, note)
		}
	}
}
