package commands

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildInfoFallback(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
	}}
	if got := (BuildInfo{}).fillFrom(bi); got != (BuildInfo{Version: "v1.2.3", Commit: "abc123", Date: "2026-01-02T03:04:05Z"}) {
		t.Errorf("from build info: %+v", got)
	}
	stamped := BuildInfo{Version: "v2.0.0", Commit: "fff", Date: "2026-11-29"}
	if got := stamped.fillFrom(bi); got != stamped {
		t.Errorf("ldflags values must win: %+v", got)
	}
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	if got := (BuildInfo{}).fillFrom(devel); got.Version != "dev" {
		t.Errorf("a local build is dev, not %q", got.Version)
	}
}

func TestVersionCommand(t *testing.T) {
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
