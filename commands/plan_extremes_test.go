package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	urfave "github.com/urfave/cli/v2"
)

// planBase are arguments that make each what-if verb plan the example
// snapshot, so that one flag at a time can be pushed to the extremes.
var planBase = map[string][]string{
	"join":            {"--add", "1"},
	"leave":           {"--worker", "10.0.1.12:8083"},
	"scale":           {"--to", "5"},
	"connector":       {"--set", "jdbc-orders-source=4"},
	"rolling-restart": {"--restart-time", "90s"},
	"advise":          {"--restart-time", "90s", "--delays", "1m,5m"},
}

// TestPlanFlagsAtTheExtremes gives every numeric and duration flag of the
// what-if verbs the largest and smallest values a user can type: each run
// ends at once with an exit status of the README's table and, when it
// refuses, one line. (plan scale --to 9223372036854775807 ran until it was
// interrupted: the target escaped the bounds.)
func TestPlanFlagsAtTheExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("about 400 plans")
	}
	t.Parallel()
	snap := snapshotFile
	var verbs []string
	for _, c := range tree() {
		if c.Name == "plan" {
			for _, v := range c.Subcommands {
				if planBase[v.Name] == nil && v.Name != "replay" {
					t.Errorf("plan %s: no base arguments here; add them to planBase", v.Name)
				}
				if base := planBase[v.Name]; base != nil {
					for _, f := range v.Flags {
						if name, ok := extremeFlag(f); ok {
							verbs = append(verbs, v.Name+" "+name)
						}
					}
				}
			}
		}
	}
	t.Logf("%d flags of the what-if verbs take a number or a duration", len(verbs))
	if len(verbs) < 30 {
		t.Fatalf("found %d numeric flags, fewer than the what-if verbs have", len(verbs))
	}
	for _, vf := range verbs {
		verb, flag, _ := strings.Cut(vf, " ")
		for _, value := range []string{"9223372036854775807", "-9223372036854775808", "99999999999999999999", "2562047h", "-1ns", "0"} {
			args := append([]string{"plan", verb, "--from", snap}, planBase[verb]...)
			args = append(args, "--"+flag, value, "-o", "json", "--compact")
			done := make(chan struct{})
			var stderr string
			var code int
			start := time.Now()
			go func() {
				defer close(done)
				_, stderr, code = run(t, args...)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("plan %s --%s %s: still running after 20s", verb, flag, value)
			}
			if code < 0 || code > 4 || (code >= 2 && strings.Count(strings.TrimSpace(stderr), "\n") > 0) || strings.Contains(stderr, "panic") {
				t.Errorf("plan %s --%s %s: exit %d after %v: %q", verb, flag, value, code, time.Since(start).Round(time.Millisecond), stderr)
			}
		}
	}
}

// extremeFlag says whether f takes a number or a duration, and its name.
func extremeFlag(f urfave.Flag) (string, bool) {
	name := f.Names()[0]
	switch f.(type) {
	case *urfave.IntFlag, *urfave.Int64Flag, *urfave.UintFlag, *urfave.Uint64Flag, *urfave.DurationFlag, *urfave.Float64Flag:
		return name, true
	}
	usage := fmt.Sprint(f)
	for _, placeholder := range []string{"DURATION", " N ", " N\t", "MAJOR", "`N`", " K "} {
		if strings.Contains(usage, placeholder) {
			return name, true
		}
	}
	return name, false
}
