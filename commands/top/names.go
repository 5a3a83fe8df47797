package top

import (
	"fmt"
	"os"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/completions"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/detail"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/views"
)

// NewCmdNames is the hidden command completion asks for names: the
// cluster's connector and worker names, one per line as "connector NAME" or
// "worker NAME", read as the global flags say.
func NewCmdNames() *cli.Command {
	return &cli.Command{Name: cli.NamesCommand, Hidden: true, Run: runNames}
}

// MaxNamesFile is the largest --from file completion reads names from.
const MaxNamesFile = 256 << 20

func runNames(e *cli.Env) error {
	g := e.Globals
	var ds *inspect.Dataset
	var err error
	switch {
	case g.From != "":
		// A shell waits for this on every Tab: only a regular file of a
		// size read within the completion's bound (a FIFO would wait for a
		// writer, /dev/zero would never end), read until its context ends.
		if st, serr := os.Stat(g.From); serr != nil || !st.Mode().IsRegular() || st.Size() > MaxNamesFile {
			return nil
		}
		ds, err = source.LoadFileContext(e.Ctx, g.From, g.Topics)
	case g.Live():
		var opts live.Options
		opts, err = e.LiveOptions()
		if err != nil {
			return err
		}
		opts.Conn.Timeout = min(opts.Conn.Timeout, cli.CompleteTimeout)
		opts.Read, opts.SkipSinkGroups = []string{g.Topics.Config, g.Topics.Status}, true
		ds, err = live.Read(e.Ctx, opts)
	default:
		return nil
	}
	if err != nil {
		return cli.InputError(err)
	}
	connectors, workers := detail.Names(views.Of(ds))
	// One name a line: a name that holds a newline (or any control
	// character) cannot be completed as itself and is left out.
	for _, n := range connectors {
		if completions.Offerable(n) {
			fmt.Fprintln(e.IO.Out, "connector", n)
		}
	}
	for _, w := range workers {
		if completions.Offerable(w) {
			fmt.Fprintln(e.IO.Out, "worker", w)
		}
	}
	return nil
}
