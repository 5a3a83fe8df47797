package commands

import (
	"errors"
	"fmt"

	"github.com/connectscope/connectscope/contexts"
	"github.com/urfave/cli/v2"
)

func init() {
	register(&cli.Command{
		Name:  "config",
		Usage: "named clusters (contexts): list them, show or switch the current one",
		Description: "Contexts live in connectscope/config.yaml in the user's config directory\n" +
			"(~/.config on Linux), or in the file $CONNECTSCOPE_CONFIG names. Each holds what\n" +
			"the global flags would: bootstrap-server, group, topic names, TLS and SASL settings or\n" +
			"worker-config; passwords only by reference (sasl-password-env, sasl-password-file).\n\n" +
			"Examples:\n" +
			"  connectscope config get-contexts\n" +
			"  connectscope config use-context prod\n" +
			"  connectscope --context staging inspect connectors",
		Subcommands: []*cli.Command{
			{
				Name:   "get-contexts",
				Usage:  "list the contexts; * marks the current one",
				Action: action(runGetContexts),
			},
			{
				Name:   "current-context",
				Usage:  "print the current context's name (exit 1 when none is set)",
				Action: action(runCurrentContext),
			},
			{
				Name:      "use-context",
				Usage:     "make NAME the current context (rewrites only the current-context line of the file)",
				ArgsUsage: "NAME",
				Action:    action(runUseContext),
			},
		},
	})
}

func loadContexts() (*contexts.File, error) {
	path, err := contexts.DefaultPath()
	if err != nil {
		return nil, Exit(ExitUsage, err)
	}
	f, err := contexts.Load(path)
	if err != nil {
		return nil, Exit(ExitUsage, err)
	}
	return f, nil
}

func runGetContexts(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	return emit(c, g, f.View())
}

func runCurrentContext(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	if f.CurrentContext == "" {
		return notFound(fmt.Errorf("no current context in %s: set one with connectscope config use-context NAME", f.Path))
	}
	_, err = fmt.Fprintln(c.App.Writer, f.CurrentContext)
	return err
}

func runUseContext(c *cli.Context, g Globals) error {
	if c.NArg() != 1 {
		return UsageErrorf("use-context needs one context NAME")
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	name := c.Args().First()
	err = f.UseContext(name)
	var nf *contexts.NotFoundError
	if errors.As(err, &nf) {
		return notFound(err)
	}
	if err != nil {
		return InputError(err)
	}
	_, err = fmt.Fprintf(c.App.Writer, "current context: %s\n", name)
	return err
}
