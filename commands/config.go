package commands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/connectscope/connectscope/contexts"
	"github.com/urfave/cli/v2"
)

// configCommand manages the named clusters of the config file.
func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "named clusters (contexts): list them, show or switch the current one",
		Description: "Contexts live in connectscope/config.yaml in the user's config directory\n" +
			"(~/.config on Linux), or in the file $CONNECTSCOPE_CONFIG names. Each holds what\n" +
			"the global flags would: bootstrap-server, group, topic names, TLS and SASL settings or\n" +
			"worker-config; passwords only by reference (sasl-password-env, sasl-password-file).\n\n" +
			"Examples:\n" +
			"  connectscope config get-contexts\n" +
			"  connectscope config use-context prod\n" +
			"  connectscope config set-context -b kafka-1:9092 -g connect-prod --sasl-mechanism SCRAM-SHA-512 --sasl-user ops --sasl-password-env PROD_PW prod\n" +
			"  connectscope --context staging inspect connectors",
		Subcommands: []*cli.Command{
			{
				Name:   "get-contexts",
				Usage:  "list the contexts; * marks the current one",
				Action: action(runGetContexts),
			},
			{
				Name:        "current-context",
				Usage:       "print the current context's name (exit 4 when none is set)",
				Description: "Example:\n  connectscope config current-context",
				Action:      action(runCurrentContext),
			},
			setContextCommand(),
			{
				Name:      "use-context",
				Usage:     "make NAME the current context (rewrites only the current-context line of the file)",
				ArgsUsage: "NAME",
				Action:    action(runUseContext),
			},
		},
	}
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

// setContextFlags are set-context's own copies of the connection flags: only
// what is typed on its command line is written (never the environment), and
// the password only by reference.
func setContextFlags() []cli.Flag {
	var flags []cli.Flag
	for _, key := range contexts.Keys {
		switch key {
		case "sasl-password-env":
			flags = append(flags, &cli.StringFlag{Name: key, Usage: "the password is in this environment `VARIABLE`"})
		case "sasl-password-file":
			flags = append(flags, &cli.StringFlag{Name: key, Usage: "the password is the content of this `FILE`"})
		case flagWorkerConfig:
			flags = append(flags, &cli.StringSliceFlag{Name: key, Usage: "worker config `FILE` (repeatable)"})
		case flagTLS, flagTLSInsecure:
			flags = append(flags, &cli.BoolFlag{Name: key, Usage: "write " + key})
		case flagBootstrap:
			flags = append(flags, &cli.StringFlag{Name: key, Aliases: []string{"b"}, Usage: "write " + key + " `HOSTS`"})
		case flagGroup:
			flags = append(flags, &cli.StringFlag{Name: key, Aliases: []string{"g"}, Usage: "write " + key + " `ID`"})
		default:
			flags = append(flags, &cli.StringFlag{Name: key, Usage: "write " + key + " `" + contextPlaceholder(key) + "`"})
		}
	}
	return flags
}

// contextPlaceholder says what a context setting's value is, for help.
func contextPlaceholder(key string) string {
	switch {
	case strings.HasSuffix(key, "-topic"):
		return "TOPIC"
	case strings.HasPrefix(key, "tls-") && key != "tls-server-name":
		return "FILE"
	case key == "tls-server-name":
		return "HOST"
	case key == "timeout":
		return "DURATION"
	case key == "isolation":
		return "LEVEL"
	case key == "sasl-mechanism":
		return "MECHANISM"
	case key == "sasl-user":
		return "USER"
	}
	return strings.ToUpper(key)
}

func setContextCommand() *cli.Command {
	return &cli.Command{
		Name:      "set-context",
		Usage:     "create context NAME or change the settings given (other lines and comments are kept)",
		ArgsUsage: "NAME",
		Description: "Writes the settings typed on this command line into context NAME of the config\n" +
			"file, creating the file when missing. Passwords only by reference: --sasl-password-env\n" +
			"VARIABLE or --sasl-password-file FILE. Relative file paths are written absolute.\n\n" +
			"Example:\n" +
			"  connectscope config set-context -b kafka-1:9092 -g connect-prod --tls-ca ca.pem prod",
		Flags: setContextFlags(),
		Action: func(c *cli.Context) error {
			// Before the globals are resolved, whose own checks would word
			// this as a missing --sasl-mechanism.
			if passwordTyped(c) {
				return UsageErrorf("set-context keeps passwords by reference only: use --sasl-password-env VARIABLE or --sasl-password-file FILE")
			}
			return action(runSetContext)(c)
		},
	}
}

func runSetContext(c *cli.Context, g Globals) error {
	if c.NArg() != 1 {
		return UsageErrorf("set-context needs one context NAME")
	}
	var settings []contexts.Setting
	for _, key := range contexts.Keys {
		if !c.IsSet(key) {
			continue
		}
		var v any
		switch key {
		case flagWorkerConfig:
			var paths []string
			for _, p := range c.StringSlice(key) {
				paths = append(paths, absPath(p))
			}
			v = paths
		case flagTLS, flagTLSInsecure:
			v = c.Bool(key)
		case flagTLSCA, flagTLSCert, flagTLSKey, "sasl-password-file":
			v = absPath(c.String(key))
		case flagTimeout:
			d, err := time.ParseDuration(c.String(key))
			if err != nil || d <= 0 {
				return UsageErrorf("--timeout %q is not a duration: give one like 30s, 2m or 1m30s", c.String(key))
			}
			v = d.String()
		default:
			v = c.String(key)
		}
		settings = append(settings, contexts.Setting{Key: key, Value: v})
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	name := c.Args().First()
	if err := f.SetContext(name, settings); err != nil {
		return Exit(ExitUsage, err)
	}
	_, err = fmt.Fprintf(c.App.Writer, "context %s written to %s\n", name, f.Path)
	return err
}

// absPath makes a path typed relative to the working directory absolute,
// since the config file resolves relative paths against its own directory.
func absPath(p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~/") {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// passwordTyped reports whether --sasl-password was typed on the command
// line (the application's copy also holds the environment, which is not
// what set-context writes).
func passwordTyped(c *cli.Context) bool {
	for _, ctx := range c.Lineage() {
		if ctx.Command == nil || !ctx.IsSet(flagSASLPassword) {
			continue
		}
		if ctx.Command.Name != c.App.Name && ctx.Command.Name != "" {
			return true
		}
		if os.Getenv(envName(flagSASLPassword)) == "" { // the root's copy: typed, not from the environment
			return true
		}
	}
	return false
}
