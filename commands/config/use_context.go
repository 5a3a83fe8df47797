package config

import (
	"errors"
	"fmt"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/contexts"
	"github.com/connectscope/connectscope/format"
)

// UseContextOptions are `config use-context NAME`'s inputs.
type UseContextOptions struct {
	Name string // the argument
}

// NewCmdUseContext is `config use-context NAME`.
func NewCmdUseContext(run func(*cli.Env, *UseContextOptions) error) *cli.Command {
	return cli.Verb(run, runUseContext, func(o *UseContextOptions) *cli.Command {
		return &cli.Command{
			Name:  "use-context",
			Usage: "make NAME the current context (rewrites only the current-context line of the file)",
			Spec:  spec(),
			Arg:   &cli.Arg{Into: &o.Name, Name: "NAME", Missing: "use-context needs one context NAME", Values: cli.Contexts},
		}
	})
}

func runUseContext(e *cli.Env, o *UseContextOptions) error {
	f, err := loadContexts()
	if err != nil {
		return err
	}
	err = f.UseContext(o.Name)
	var nf *contexts.NotFoundError
	if errors.As(err, &nf) {
		return cli.NotFound(err)
	}
	if err != nil {
		return cli.InputError(err)
	}
	// A name from a hand-written file is data: it prints escaped.
	_, err = fmt.Fprintf(e.IO.Out, "current context: %s\n", format.EscapeTerminal(o.Name))
	return err
}
