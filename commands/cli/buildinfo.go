package cli

import (
	"os"
	"runtime/debug"

	urfave "github.com/urfave/cli/v2"
)

// BuildInfo is stamped into package main with -ldflags at release time
// (-X main.version=… -X main.commit=… -X main.date=…).
type BuildInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
}

const buildInfoKey = "connectscope.buildInfo"

// resolved fills what -ldflags did not stamp from the Go build information,
// which `go install module@version` and VCS-aware builds record.
func (b BuildInfo) resolved() BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		if b.Version == "" {
			b.Version = "dev"
		}
		return b
	}
	return b.fillFrom(bi)
}

func (b BuildInfo) fillFrom(bi *debug.BuildInfo) BuildInfo {
	if (b.Version == "" || b.Version == "dev") && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && b.Commit == "":
			b.Commit = s.Value
		case s.Key == "vcs.time" && b.Date == "":
			b.Date = s.Value
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// typedOnCommandLine reports whether a global flag was typed on the command
// line (the application's copy also holds the environment, which was not
// typed).
func typedOnCommandLine(c *urfave.Context, flag string) bool {
	for _, ctx := range c.Lineage() {
		if ctx.Command == nil || !ctx.IsSet(flag) {
			continue
		}
		if ctx.Command.Name != c.App.Name && ctx.Command.Name != "" {
			return true
		}
		if os.Getenv(envName(flag)) == "" { // the root's copy: typed, not from the environment
			return true
		}
	}
	return false
}
