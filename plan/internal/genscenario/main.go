// Command genscenario prints the end-to-end timing scenario of
// java-timings.md: go run ./plan/internal/genscenario > big.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/connectscope/connectscope/plan/internal/scenariogen"
)

func main() {
	workers := flag.Int("workers", 1000, "workers that join first")
	connectors := flag.Int("connectors", 10000, "configured connectors")
	tasks := flag.Int("tasks", 10, "tasks per connector")
	oneRound := flag.Bool("one-round", false, "only the first round: every worker joins, one rebalance (BENCHMARKS.md, plan rounds at scale)")
	flag.Parse()
	if *workers < 1 || *connectors < 0 || *tasks < 0 {
		fmt.Fprintln(os.Stderr, "genscenario: workers must be >= 1, connectors and tasks >= 0")
		os.Exit(2)
	}
	gen := scenariogen.ScaleOut
	if *oneRound {
		gen = scenariogen.OneRound
	}
	if _, err := os.Stdout.Write(gen(*workers, *connectors, *tasks)); err != nil {
		fmt.Fprintln(os.Stderr, "genscenario:", err)
		os.Exit(1)
	}
}
