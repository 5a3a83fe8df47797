package config

import (
	"github.com/connectscope/connectscope/commands/cli"
)

// NewCmdGetContexts is `config get-contexts`.
func NewCmdGetContexts(run func(*cli.Env) error) *cli.Command {
	if run == nil {
		run = runGetContexts
	}
	return &cli.Command{
		Name:  "get-contexts",
		Usage: "list the contexts; * marks the current one",
		Spec:  spec(nil),
		Run:   run,
	}
}

func runGetContexts(e *cli.Env) error {
	if err := e.NoArgs(); err != nil {
		return err
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	return e.Emit(f.View())
}
