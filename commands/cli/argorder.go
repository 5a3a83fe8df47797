package cli

import (
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// flagsFirst moves the flags a leaf command is given after its positional
// arguments in front of them, so `check explain D1 -o json` means
// `check explain -o json D1`: urfave/cli (like Go's flag package) stops at
// the first argument. Everything after `--` stays an argument, and a
// completion request is left alone.
func flagsFirst(app *urfave.App, args []string) []string {
	if len(args) < 2 || slices.Contains(args, "--generate-bash-completion") {
		return args
	}
	flags := app.Flags
	cmds := app.Commands
	var leaf *urfave.Command
	i := 1
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return args
		}
		if isFlagToken(a) {
			i += 1 + flagValueCount(flags, a, args[i+1:])
			continue
		}
		next := findCommand(cmds, a)
		if next == nil {
			break
		}
		leaf, flags, cmds = next, next.Flags, next.Subcommands
		i++
	}
	if leaf == nil || len(leaf.Subcommands) > 0 || leaf.SkipFlagParsing || i >= len(args) {
		// A command that parses its own words (__complete) gets them as typed.
		return args
	}
	out := slices.Clone(args[:i])
	var positional []string
	for j := i; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			positional = append(positional, args[j:]...)
			break
		}
		if !isFlagToken(a) {
			positional = append(positional, a)
			continue
		}
		n := min(flagValueCount(flags, a, args[j+1:]), len(args)-j-1)
		out = append(out, args[j:j+1+n]...)
		j += n
	}
	if slices.ContainsFunc(out[i:], func(a string) bool { return a == "-h" || a == "--help" }) {
		// Help for a leaf command takes no arguments (urfave would read
		// one as a subcommand to describe).
		return out
	}
	return append(out, positional...)
}

// isFlagToken is -x or --name (with or without =value); "-" alone is an
// argument (standard input).
func isFlagToken(a string) bool { return len(a) > 1 && a[0] == '-' && a != "--" }

// flagValueCount is 1 when the flag in token takes its value from the next
// argument, else 0.
func flagValueCount(flags []urfave.Flag, token string, rest []string) int {
	name := strings.TrimLeft(token, "-")
	if strings.Contains(name, "=") || len(rest) == 0 {
		return 0
	}
	if name == "help" || name == "h" {
		return 0
	}
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		if v, ok := f.(urfave.DocGenerationFlag); ok && v.TakesValue() {
			return 1
		}
		return 0
	}
	return 0
}

// findCommand is the command among cmds called name or one of its aliases.
func findCommand(cmds []*urfave.Command, name string) *urfave.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
