package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --restart-time auto, --returns-after auto and --restart-times: each worker
// its measured time, the fallback named on stderr, bad combinations and a
// bad file refused with one line.
func TestPlanRestartTimeAuto(t *testing.T) {
	snap, times := "../examples/cluster.snapshot.json", "../examples/restart-times.json"
	restarts := func(m map[string]any) map[string]string {
		out := map[string]string{}
		for _, s := range m["assumptions"].(map[string]any)["settings"].([]any) {
			if s := s.(map[string]any); s["setting"] == "restart_time_ms" {
				w, _ := s["worker"].(string)
				out[w] = s["value"].(string) + " " + s["source"].(string)
			}
		}
		return out
	}
	out, stderr, code := run(t, "plan", "rolling-restart", "--from", snap, "--restart-time", "auto", "--restart-times", times, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "no restart time measured for 10.0.1.13:8083") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line naming 10.0.1.13:8083", stderr)
	}
	m := planJSON(t, "plan", "rolling-restart", "--from", snap, "--restart-time", "auto", "--restart-times", times)
	got := restarts(m)
	if got["10.0.1.12:8083"] != "74000 restart-times file" || got["10.0.1.13:8083"] != "81000 restart-times file (longest of any worker)" {
		t.Errorf("rolling restart: %v", got)
	}
	m = planJSON(t, "plan", "leave", "--from", snap, "--worker", "10.0.1.12:8083", "--returns-after", "auto", "--restart-times", times)
	if got := restarts(m); len(got) != 1 || got["10.0.1.12:8083"] != "74000 restart-times file" {
		t.Errorf("leave: %v", got)
	}
	if back := m["assumptions"].(map[string]any)["returns_after_ms"]; back != 74000.0 {
		t.Errorf("returns_after_ms %v", back)
	}
	// advise exits 1 when the current setting is beaten; the JSON is whole.
	out, stderr, code = run(t, "plan", "advise", "--from", snap, "--restart-time", "auto", "--restart-times", times, "--delays", "1m,5m", "-o", "json")
	m = map[string]any{}
	if err := json.Unmarshal([]byte(out), &m); err != nil || code > 1 {
		t.Fatalf("advise: exit %d, %v: %s", code, err, stderr)
	}
	if got := restarts(m); len(got) != 3 || got["10.0.1.11:8083"] != "81000 restart-times file" {
		t.Errorf("advise: %v", got)
	}
	m = planJSON(t, "plan", "rolling-restart", "--from", snap, "--restart-time", "90s")
	if got := restarts(m); got[""] != "90000 flag" {
		t.Errorf("a given time: %v", got)
	}

	bad := filepath.Join(t.TempDir(), "v2.json")
	if err := os.WriteFile(bad, []byte(`{"version": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	twice := filepath.Join(t.TempDir(), "twice.json")
	if err := os.WriteFile(twice, []byte(`{"version": 1, "workers": {"10.0.1.12:8083": 42000, "10.0.1.12:8083": 500}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		args []string
		code int
		says string
	}{
		"a worker given twice": {[]string{"plan", "rolling-restart", "--from", snap, "--restart-time", "auto", "--restart-times", twice}, ExitInput, `workers: key "10.0.1.12:8083" given twice`},
		"file without auto":    {[]string{"plan", "rolling-restart", "--from", snap, "--restart-time", "90s", "--restart-times", times}, ExitUsage, "--restart-times is read with --restart-time auto"},
		"leave file alone":     {[]string{"plan", "leave", "--from", snap, "--worker", "10.0.1.12:8083", "--restart-times", times}, ExitUsage, "--returns-after auto"},
		"neither":              {[]string{"plan", "rolling-restart", "--from", snap, "--restart-time", "soon"}, ExitUsage, "or auto"},
		"unknown file version": {[]string{"plan", "rolling-restart", "--from", snap, "--restart-time", "auto", "--restart-times", bad}, ExitInput, "version 2"},
		"missing file":         {[]string{"plan", "rolling-restart", "--from", snap, "--restart-time", "auto", "--restart-times", bad + ".none"}, ExitInput, "--restart-times"},
	} {
		_, stderr, code := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d %q, want %d saying %q in one line", name, code, stderr, c.code, c.says)
		}
	}
}
