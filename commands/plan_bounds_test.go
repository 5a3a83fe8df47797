package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Absurd plans are refused up front: exit 2, one line, no output, at once.
func TestPlanBoundsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scenario := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	twoMaxSleeps := scenario("sleeps.json", `{"scenario":1,"steps":[{"join":["a"]},{"sleep_ms":9223372036854775807},{"sleep_ms":9223372036854775807},{"rebalance":{}}]}`)
	centuries := scenario("centuries.json", `{"scenario":1,"steps":[{"join":["a"]},{"sleep_ms":3153600000000},{"sleep_ms":3153600000000},{"rebalance":{}}]}`)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "join", "--add", "1", "--synthetic", "workers=3,connectors=1000000"}, "~1 GiB"},
		{[]string{"plan", "leave", "--worker", "w2", "--returns-after", "9223372036854775807", "--synthetic", "workers=3,connectors=3"}, "a century"},
		{[]string{"plan", "rolling-restart", "--restart-time", "9223372036854775807", "--synthetic", "workers=3,connectors=3"}, "a century"},
		{[]string{"plan", "replay", twoMaxSleeps}, "a century"},
		{[]string{"plan", "replay", centuries}, "clock would pass a century"},
		{[]string{"plan", "advise", "--restart-time", "90s", "--synthetic", "workers=1500,connectors=10000,tasks=2"}, "sweep fewer settings"},
		{[]string{"plan", "advise", "--restart-time", "90s", "--delays", "0,3153600000001", "--synthetic", "workers=3,connectors=3"}, "a century"},
	}
	for _, tc := range cases {
		start := time.Now()
		stdout, stderr, code := run(t, tc.args...)
		if code != ExitUsage || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 2 and no output", tc.args, code, stdout)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: stderr %q, want one line saying %q", tc.args, stderr, tc.want)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v: took %s to refuse", tc.args, took)
		}
	}
}
