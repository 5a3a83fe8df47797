// Command genimages draws the README's pictures of the classic case
// (6 workers, 30 connectors x 3 tasks, 5-minute delay, 90 s restarts) with
// the same code as --plot, the workers named as real ones are
// (connect-worker-N.prod.example.com:8083), so the pictures show what an
// operator's own cluster draws. Run it with `go generate ./plan/plot`.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/plot"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

func main() {
	out := flag.String("out", "docs/img", "folder for the pictures")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genimages:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	st := cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3}).WithHostNames(plot.RealLookingName)
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	roll, err := whatif.RollingRestartPlan(st, opts, 90000, whatif.StopClean, nil)
	if err != nil {
		return err
	}
	if err := save(filepath.Join(dir, "classic-rolling-restart.svg"), func(w io.Writer, f string) error { return plot.WriteTimeline(w, f, roll) }); err != nil {
		return err
	}
	for name, ao := range map[string]advise.AdviseOptions{
		"classic-advise.svg":              {RestartMs: 90000, MaxMoves: -1},
		"classic-advise-max-moves-20.svg": {RestartMs: 90000, MaxMoves: 20},
	} {
		res, err := advise.Advise(context.Background(), st, opts, ao)
		if err != nil {
			return err
		}
		if err := save(filepath.Join(dir, name), func(w io.Writer, f string) error { return plot.WriteTradeoff(w, f, res) }); err != nil {
			return err
		}
	}
	return nil
}

func save(path string, write func(io.Writer, string) error) error {
	if err := plot.Save(path, write); err != nil {
		return err
	}
	fmt.Println("wrote", path)
	return nil
}
