package group

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
)

// The dead-group note names the settings; the caller chooses their words.
func TestMembersNoteNamesSettings(t *testing.T) {
	res := Members(&inspect.GroupDescription{Group: "g", State: "Dead", ProtocolType: "connect"})
	if res.Note == nil || !strings.Contains(*res.Note, "set it with the group id or the worker config") {
		t.Fatalf("note = %v, want it to name the group id and worker config settings", res.Note)
	}
	res.NameSettings(func(s setting.Setting) string {
		return map[setting.Setting]string{setting.GroupID: "--group", setting.WorkerConfig: "--worker-config"}[s]
	})
	if want := `the group is dead or does not exist: no worker is a member (is "g" the workers' group.id? set it with --group or --worker-config)`; !strings.HasPrefix(*res.Note, want) {
		t.Errorf("named note = %q, want %q", *res.Note, want)
	}
}
