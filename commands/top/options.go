package top

import (
	"io"

	"github.com/connectscope/connectscope/commands/cli"
)

// NewCmdOptions is `options`: the global flags, by category (`kubectl options`).
func NewCmdOptions() *cli.Command {
	return cli.Plain(nil, runOptions, &cli.Command{
		Name:  "options",
		Usage: "print the global flags every command takes (input, connection, output)",
		Description: `
The global flags work before or after the command name, and after its arguments.
Precedence: a flag typed after the command, then one before it, then the environment
variable shown, then the --worker-config file, then the default.`,
		Examples: `
connectscope options
connectscope inspect members -b broker:9092 --timeout 10s -o wide`,
		Spec: cli.Spec{Offline: true, NoFormat: true, NoGlobals: true},
	})
}

func runOptions(e *cli.Env) error {
	_, err := io.WriteString(e.IO.Out, cli.GlobalOptionsText())
	return err
}
