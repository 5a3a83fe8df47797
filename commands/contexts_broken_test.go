package commands

import (
	"strings"
	"testing"
)

// A broken named-cluster file fails only the commands that need a context:
// offline ones work and say nothing about it.
func TestBrokenContextFileIsReadLazily(t *testing.T) {
	p := writeContexts(t, "current-context: a\ncontexts:\n  a: x\n")
	want := p + ":3: context a must be a mapping of settings"
	for name, args := range map[string][]string{
		"version":   {"version"},
		"synthetic": {"plan", "join", "--synthetic=workers=3,connectors=2", "--add", "1"},
		"from file": {"inspect", "connectors", "--from", snapshotFile},
	} {
		if out, stderr, code := run(t, args...); code != ExitOK || out == "" || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want it to work and say nothing of the file", name, code, out, stderr)
		}
	}
	for name, args := range map[string][]string{
		"--context":    {"--context", "a", "inspect", "connectors"},
		"live, no -b":  {"inspect", "connectors"},
		"live with -b": {"-b", "127.0.0.1:1", "--timeout", "2s", "inspect", "connectors"},
	} {
		_, stderr, code := run(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "contexts.Context") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 with %q", name, code, stderr, want)
		}
	}
}
