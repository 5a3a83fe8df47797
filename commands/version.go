package commands

import (
	"runtime"
	"runtime/debug"

	"github.com/connectscope/connectscope/format"
	"github.com/urfave/cli/v2"
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

// versionResult is what `connectscope version` prints.
type versionResult struct {
	BuildInfo
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func (v versionResult) Tables() []format.Table {
	orNone := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	return []format.Table{{Rows: [][]string{
		{"version", v.Version},
		{"commit", orNone(v.Commit)},
		{"built", orNone(v.Date)},
		{"go", v.Go},
		{"platform", v.Platform},
	}}}
}

// versionCommand is the `version` command.
var versionCommand = &cli.Command{
	Name:  "version",
	Usage: "print connectscope's version, commit and build date",
	Action: action(func(c *cli.Context, g Globals) error {
		if err := noArgs(c); err != nil {
			return err
		}
		info, _ := c.App.Metadata[buildInfoKey].(BuildInfo)
		return emit(c, g, versionResult{BuildInfo: info, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH})
	}),
}
