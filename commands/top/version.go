// Package top holds the verbs that stand alone, without a noun: version,
// options, completion, snapshot, diff, watch, demo, sandbox, one a file.
package top

import (
	"encoding/json"
	"runtime"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
)

// versionResult is what `connectscope version` prints.
type versionResult struct {
	cli.BuildInfo
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// MarshalJSON writes an unknown commit or date as null, as absent values are
// everywhere in the JSON contract.
func (v versionResult) MarshalJSON() ([]byte, error) {
	orNull := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return json.Marshal(struct {
		Version  string  `json:"version"`
		Commit   *string `json:"commit"`
		Date     *string `json:"date"`
		Go       string  `json:"go"`
		Platform string  `json:"platform"`
	}{v.Version, orNull(v.Commit), orNull(v.Date), v.Go, v.Platform})
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

// NewCmdVersion is `version`.
func NewCmdVersion(run func(*cli.Env) error) *cli.Command {
	return cli.Plain(run, runVersion, &cli.Command{
		Name:  "version",
		Usage: "print connectscope's version, commit and build date",
		Examples: `
connectscope version
connectscope version -o json --jq .commit`,
		Spec: cli.Spec{Offline: true, Result: (*versionResult)(nil)},
	})
}

func runVersion(e *cli.Env) error {
	return e.Emit(versionResult{BuildInfo: e.Build, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH})
}
