package config

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/contexts"
)

// spec is what the config verbs share: they read the config file only, and
// themselves (no named cluster is laid under their flags).
func spec() cli.Spec {
	return cli.Spec{Offline: true, NoContext: true}
}

func loadContexts() (*contexts.File, error) {
	path, err := contexts.DefaultPath()
	if err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	f, err := contexts.Load(path)
	if err != nil {
		return nil, cli.Exit(cli.ExitUsage, err)
	}
	return f, nil
}
