// Command connectscope is the Kafka Connect operator's toolkit.
package main

import (
	"os"

	"github.com/connectscope/connectscope/commands"
)

// Stamped at release time: go build -ldflags "-X main.version=… -X main.commit=… -X main.date=…".
var (
	version = ""
	commit  = ""
	date    = ""
)

func main() {
	os.Exit(commands.Main(os.Args, commands.StdStreams(), commands.BuildInfo{Version: version, Commit: commit, Date: date}))
}
