package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// NewCmdRules is `check rules`, the catalogue.
func NewCmdRules(run func(*cli.Env) error) *cli.Command {
	return cli.Plain(run, runRules, &cli.Command{
		Name:  "rules",
		Usage: "print the catalogue of rules (-o wide adds why and fix)",
		Examples: `
connectscope check rules
connectscope check rules -o wide`,
		Spec: cli.Spec{Offline: true, Result: (*check.Catalogue)(nil)},
	})
}

func runRules(e *cli.Env) error {
	return e.Emit(&check.Catalogue{Rules: check.Rules()})
}
