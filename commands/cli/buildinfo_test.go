package cli

import (
	"runtime/debug"
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
