package commands

import (
	"strings"

	"github.com/connectscope/connectscope/completions"
	"github.com/urfave/cli/v2"
)

// completionCommand is the `completion` command.
var completionCommand = &cli.Command{
	Name:      "completion",
	Usage:     "print the shell completion script for bash, zsh, fish or powershell",
	ArgsUsage: strings.Join(completions.Shells(), "|"),
	Description: "Examples:\n" +
		"  source <(connectscope completion bash)\n" +
		"  connectscope completion zsh > \"${fpath[1]}/_connectscope\"\n" +
		"  connectscope completion fish > ~/.config/fish/completions/connectscope.fish\n" +
		"  connectscope completion powershell | Out-String | Invoke-Expression",
	BashComplete: func(c *cli.Context) {
		for _, s := range completions.Shells() {
			c.App.Writer.Write([]byte(s + "\n"))
		}
	},
	Action: func(c *cli.Context) error {
		shells := strings.Join(completions.Shells(), ", ")
		if c.NArg() != 1 {
			return UsageErrorf("completion needs one shell: %s", shells)
		}
		script, err := completions.Script(c.Args().First())
		if err != nil {
			return UsageErrorf("unknown shell %q: use one of %s", c.Args().First(), shells)
		}
		_, err = c.App.Writer.Write(script)
		return err
	},
}
