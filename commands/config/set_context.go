package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/contexts"
	"github.com/connectscope/connectscope/format"
	urfave "github.com/urfave/cli/v2"
)

// SetContextOptions are `config set-context NAME`'s inputs: the settings
// typed, by key (contexts.Keys).
type SetContextOptions struct {
	Name    string // the argument
	Strings map[string]*string
	Bools   map[string]*bool
	Lists   map[string]*urfave.StringSlice
}

// NewCmdSetContext is `config set-context NAME`.
func NewCmdSetContext(run func(*cli.Env, *SetContextOptions) error) *cli.Command {
	return cli.Verb(run, runSetContext, func(o *SetContextOptions) *cli.Command {
		o.Strings, o.Bools, o.Lists = map[string]*string{}, map[string]*bool{}, map[string]*urfave.StringSlice{}
		s := spec()
		s.Offline = false
		return &cli.Command{
			Name:  "set-context",
			Usage: "create context NAME or change the settings given (other lines and comments are kept)",
			Description: `
Writes the settings typed on this command line into context NAME of the config
file, creating the file when missing. Passwords only by reference: --sasl-password-env
VARIABLE or --sasl-password-file FILE. Relative file paths are written absolute.`,
			Examples: `
connectscope config set-context -b kafka-1:9092 -g connect-prod --tls-ca ca.pem prod`,
			Flags: o.flags(),
			Spec:  s,
			// Before the globals are resolved, whose own checks would word
			// this as a missing --sasl-mechanism.
			Before: func(e *cli.Env) error {
				if e.Typed(cli.FlagSASLPassword) {
					return cli.UsageErrorf("set-context keeps passwords by reference only: use --sasl-password-env VARIABLE or --sasl-password-file FILE")
				}
				return nil
			},
			Arg: &cli.Arg{Into: &o.Name, Name: "NAME", Missing: "set-context needs one context NAME", Values: cli.Contexts},
		}
	})
}

// flags are set-context's own copies of the connection flags: only what is
// typed on its command line is written (never the environment), and the
// password only by reference.
func (o *SetContextOptions) flags() []urfave.Flag {
	var flags []urfave.Flag
	str := func(key string, aliases []string, usage string) {
		o.Strings[key] = new(string)
		flags = append(flags, &urfave.StringFlag{Name: key, Aliases: aliases, Destination: o.Strings[key], Usage: usage})
	}
	for _, key := range contexts.Keys {
		switch key {
		case "sasl-password-env":
			str(key, nil, "the password is in this environment `VARIABLE`")
		case "sasl-password-file":
			str(key, nil, "the password is the content of this `FILE`")
		case cli.FlagWorkerConfig:
			o.Lists[key] = new(urfave.StringSlice)
			flags = append(flags, &urfave.StringSliceFlag{Name: key, Destination: o.Lists[key], Usage: "worker config `FILE` (repeatable)"})
		case cli.FlagTLS, cli.FlagTLSInsecure:
			o.Bools[key] = new(bool)
			flags = append(flags, &urfave.BoolFlag{Name: key, Destination: o.Bools[key], Usage: "write " + key})
		case cli.FlagBootstrap:
			str(key, []string{"b"}, "write "+key+" `HOSTS`")
		case cli.FlagGroup:
			str(key, []string{"g"}, "write "+key+" `ID`")
		default:
			str(key, nil, "write "+key+" `"+contextPlaceholder(key)+"`")
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

func runSetContext(e *cli.Env, o *SetContextOptions) error {
	var settings []contexts.Setting
	for _, key := range contexts.Keys {
		if !e.Given(key) {
			continue
		}
		var v any
		switch key {
		case cli.FlagWorkerConfig:
			var paths []string
			for _, p := range o.Lists[key].Value() {
				paths = append(paths, absPath(p))
			}
			v = paths
		case cli.FlagTLS, cli.FlagTLSInsecure:
			v = *o.Bools[key]
		case cli.FlagTLSCA, cli.FlagTLSCert, cli.FlagTLSKey, "sasl-password-file":
			v = absPath(*o.Strings[key])
		case cli.FlagTimeout:
			d, err := time.ParseDuration(*o.Strings[key])
			if err != nil || d <= 0 {
				return cli.UsageErrorf("--timeout %q is not a duration: give one like 30s, 2m or 1m30s", *o.Strings[key])
			}
			v = d.String()
		default:
			v = *o.Strings[key]
		}
		settings = append(settings, contexts.Setting{Key: key, Value: v})
	}
	f, err := loadContexts()
	if err != nil {
		return err
	}
	if err := f.SetContext(o.Name, settings); err != nil {
		return cli.Exit(cli.ExitUsage, err)
	}
	_, err = fmt.Fprintf(e.IO.Out, "context %s written to %s\n", format.EscapeTerminal(o.Name), format.EscapeTerminal(f.Path))
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
