package commands

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, "version", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	if v["version"] != "v9.9.9-test" || v["go"] != runtime.Version() || v["platform"] != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("version json: %v", v)
	}
	// A test binary has no VCS stamp: what is unknown is null, never "".
	for _, k := range []string{"commit", "date"} {
		if val, ok := v[k]; !ok || val != nil {
			t.Errorf("version json %q: got %#v, want null", k, val)
		}
	}
	stdout, _, _ = run(t, "--version")
	if !strings.Contains(stdout, "v9.9.9-test") {
		t.Errorf("--version: %q", stdout)
	}
}
