package cli

import "testing"

// A subcommand without examples of its own shows its parent's examples of it.
func TestExamplesInheritedFromParent(t *testing.T) {
	desc := "\nconnectscope config get-contexts\nconnectscope config use-context prod\n  connectscope --context prod inspect members"
	if got := examplesOf(desc, "config use-context"); len(got) != 1 || got[0] != "connectscope config use-context prod" {
		t.Errorf("examplesOf: %q", got)
	}
	if got := examplesOf(desc, "config current-context"); len(got) != 0 {
		t.Errorf("examplesOf a command the parent does not show: %q", got)
	}
}
