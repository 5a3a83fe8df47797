package config

import (
	"github.com/connectscope/connectscope/commands/cli"
)

// NewCmdGetContexts is `config get-contexts`.
func NewCmdGetContexts(run func(*cli.Env) error) *cli.Command {
	return cli.Plain(run, runGetContexts, &cli.Command{
		Name:  "get-contexts",
		Usage: "list the contexts; * marks the current one",
		Spec:  spec(),
	})
}

func runGetContexts(e *cli.Env) error {
	f, err := loadContexts()
	if err != nil {
		return err
	}
	return e.Emit(f.View())
}
