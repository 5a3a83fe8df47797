package config

import (
	"fmt"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
)

// NewCmdCurrentContext is `config current-context`.
func NewCmdCurrentContext(run func(*cli.Env) error) *cli.Command {
	return cli.Plain(run, runCurrentContext, &cli.Command{
		Name:  "current-context",
		Usage: "print the current context's name (exit 4 when none is set)",
		Examples: `
connectscope config current-context`,
		Spec: spec(),
	})
}

func runCurrentContext(e *cli.Env) error {
	f, err := loadContexts()
	if err != nil {
		return err
	}
	if f.CurrentContext == "" {
		return cli.NotFound(fmt.Errorf("no current context in %s: set one with connectscope config use-context NAME", f.Path))
	}
	_, err = fmt.Fprintln(e.IO.Out, format.EscapeTerminal(f.CurrentContext)) // data from a file: never terminal control
	return err
}
