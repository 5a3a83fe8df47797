// Package config is the `config` noun: the named clusters (contexts) of the
// config file, one file per verb. The file itself is package contexts'.
package config

import "github.com/connectscope/connectscope/commands/cli"

// NewCmdConfig is the `config` noun with its verbs.
func NewCmdConfig() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "named clusters (contexts): list them, show or switch the current one",
		Description: `
Contexts live in connectscope/config.yaml in the user's config directory
(~/.config on Linux), or in the file $CONNECTSCOPE_CONFIG names. Each holds what
the global flags would: bootstrap-server, group, topic names, TLS and SASL settings or
worker-config; passwords only by reference (sasl-password-env, sasl-password-file).`,
		Examples: `
connectscope config get-contexts
connectscope config use-context prod
connectscope config set-context -b kafka-1:9092 -g connect-prod --sasl-mechanism SCRAM-SHA-512 --sasl-user ops --sasl-password-env PROD_PW prod
connectscope --context staging inspect connectors`,
		Spec: spec(),
		Subcommands: []*cli.Command{
			NewCmdGetContexts(nil),
			NewCmdCurrentContext(nil),
			NewCmdSetContext(nil),
			NewCmdUseContext(nil),
		},
	}
}
