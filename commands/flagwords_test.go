package commands

import (
	"strings"
	"testing"
)

// check and plan name their inputs; the errors users see name the flags.
func TestDeepErrorsNameFlags(t *testing.T) {
	syn := "--synthetic=workers=3,connectors=2"
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"check eos":       {[]string{"check", "upgrade", "--worker-config", apacheWorker, "--target", "compatible", "--exactly-once", "enabled"}, "--exactly-once enabled needs the target protocol sessioned"},
		"plan worker":     {[]string{"plan", "leave", syn, "--worker", "nobody"}, "--worker: "},
		"plan order":      {[]string{"plan", "rolling-restart", syn, "--restart-time", "90s", "--order", "w1,w1,w2,w3"}, "--order: worker"},
		"plan no change":  {[]string{"plan", "connector", syn}, "nothing to change: give --set, --add or --remove"},
		"plan set":        {[]string{"plan", "connector", syn, "--set", "nosuch=3"}, "--set nosuch: no such connector"},
		"bad synthetic":   {[]string{"plan", "join", "--synthetic", "workers=3,colour=red", "--add", "1"}, "--synthetic: field colour: unknown field"},
		"plan stop value": {[]string{"plan", "leave", syn, "--worker", "w1", "--stop", "gently"}, "--stop: must be clean or crash"},
	} {
		_, stderr, code := run(t, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming %q", name, code, stderr, c.want)
		}
	}
}
