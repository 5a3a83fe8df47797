package top

import (
	"io"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/completions"
)

// NewCmdCompletion is `completion SHELL`: the shell's completion script.
func NewCmdCompletion() *cli.Command {
	return cli.Plain(nil, runCompletion, &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh, fish or powershell",
		ArgsUsage: strings.Join(completions.Shells(), "|"),
		Examples: `
source <(connectscope completion bash)
connectscope completion zsh > "${fpath[1]}/_connectscope"
connectscope completion fish > ~/.config/fish/completions/connectscope.fish
connectscope completion powershell | Out-String | Invoke-Expression`,
		Spec: cli.Spec{Offline: true, NoFormat: true, NoGlobals: true,
			Args: cli.FirstArg(func(*cli.Query) []string { return completions.Shells() })},
		BashComplete: func(out io.Writer) {
			for _, s := range completions.Shells() {
				io.WriteString(out, s+"\n")
			}
		},
		Args: cli.ArgsOfRun, // the shell, read by runCompletion
	})
}

func runCompletion(e *cli.Env) error {
	shells := strings.Join(completions.Shells(), ", ")
	if len(e.Args) != 1 {
		return cli.UsageErrorf("completion needs one shell: %s", shells)
	}
	script, err := completions.Script(e.Args[0])
	if err != nil {
		return cli.UsageErrorf("unknown shell %q: use one of %s", e.Args[0], shells)
	}
	_, err = e.IO.Out.Write(script)
	return err
}
