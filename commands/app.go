// Package commands wires connectscope's command line: flags, help and exit
// codes. The work itself lives in inspect/, plan/ and check/.
package commands

import (
	"github.com/urfave/cli/v2"
)

// registered holds the top-level commands; each command file adds its own in
// init, so files owned by different areas do not edit a shared list.
var registered []*cli.Command

func register(cmds ...*cli.Command) { registered = append(registered, cmds...) }

// NewApp builds the connectscope application. (Skeleton: the CLI engineer completes it.)
func NewApp(version string) *cli.App {
	return &cli.App{
		Name:     "connectscope",
		Usage:    "see what Kafka Connect's group protocol and internal topics are doing",
		Version:  version,
		Commands: registered,
	}
}
