package commands

import (
	"strings"
	"testing"
)

// A worker or connector named on a plan's command line that the cluster does
// not hold is not found (exit 4), one line naming the flag and, for workers,
// the members there are.
func TestPlanUnknownNamesAreNotFound(t *testing.T) {
	t.Parallel()
	syn := "--synthetic=workers=3,connectors=2"
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"leave":      {[]string{"plan", "leave", syn, "--worker", "nosuch"}, `--worker: no worker "nosuch" (members: w1, w2, w3)`},
		"roll order": {[]string{"plan", "rolling-restart", syn, "--restart-time", "90s", "--order", "w1,nosuch"}, `--order: no worker "nosuch" (members: w1, w2, w3)`},
		"remove":     {[]string{"plan", "connector", syn, "--remove", "nosuch"}, "--remove nosuch: no such connector"},
		"set":        {[]string{"plan", "connector", syn, "--set", "nosuch=3"}, "--set nosuch: no such connector (add it to create one)"},
	} {
		out, stderr, code := run(t, c.args...)
		if code != ExitNotFound || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 4 and one line with %q", name, code, out, stderr, c.want)
		}
	}
	// A name given twice is a malformed request, not a missing worker.
	if _, stderr, code := run(t, "plan", "rolling-restart", syn, "--restart-time", "90s", "--order", "w1,w1,w2,w3"); code != ExitUsage {
		t.Errorf("--order w1,w1,w2,w3: exit %d, stderr %q; want exit 2", code, stderr)
	}
}
