// Command connectscope is the Kafka Connect operator's toolkit.
package main

import (
	"fmt"
	"os"

	"github.com/connectscope/connectscope/commands"
)

var version = "dev"

func main() {
	if err := commands.NewApp(version).Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "connectscope:", err)
		os.Exit(1)
	}
}
