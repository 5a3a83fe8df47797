package top

import (
	"fmt"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/describe"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
)

// NewCmdNames is the hidden command completion asks for names: the
// cluster's connector and worker names, one per line as "connector NAME" or
// "worker NAME", read as the global flags say.
func NewCmdNames() *cli.Command {
	return &cli.Command{Name: cli.NamesCommand, Hidden: true, Run: runNames}
}

func runNames(e *cli.Env) error {
	g := e.Globals
	var ds *inspect.Dataset
	var err error
	switch {
	case g.From != "":
		ds, err = source.LoadFile(g.From, g.Topics)
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
	connectors, workers := describe.Names(decoded.Decode(ds, store.DecodeOptions{}))
	for _, n := range connectors {
		fmt.Fprintln(e.IO.Out, "connector", n)
	}
	for _, w := range workers {
		fmt.Fprintln(e.IO.Out, "worker", w)
	}
	return nil
}
