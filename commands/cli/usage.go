package cli

import (
	"regexp"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// flagUsageError turns urfave's flag parsing errors into exit status 2,
// suggesting the flag that was probably meant.
func flagUsageError(c *urfave.Context, err error, _ bool) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		return UsageErrorf("--%s: %q is not %s", m[2], m[1], valueKind(c, m[2]))
	}
	if name, ok := strings.CutPrefix(msg, undefined); ok && c != nil && c.Command != nil && urfave.SuggestFlag != nil {
		if s := urfave.SuggestFlag(c.Command.Flags, name, false); s != "" && closeEnough(strings.TrimLeft(s, "-"), name) {
			return UsageErrorf("%s; did you mean %s?", msg, s)
		}
	}
	return Exit(ExitUsage, err)
}

// badFlagValue is Go's flag package rejecting a value: `invalid value "soon"
// for flag -timeout: parse error`.
var badFlagValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// valueKind says what a flag's value should look like, for the error.
func valueKind(c *urfave.Context, name string) string {
	var flags []urfave.Flag
	if c != nil && c.Command != nil {
		flags = c.Command.Flags
	}
	if c != nil && c.App != nil {
		flags = append(flags, c.App.Flags...)
	}
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *urfave.DurationFlag:
			return "a duration: give one like 30s, 2m or 1m30s"
		case *urfave.IntFlag, *urfave.Int64Flag:
			return "a whole number"
		}
	}
	return "a valid value"
}

// closeEnough accepts a suggestion within a few edits of what was typed.
func closeEnough(suggestion, typed string) bool {
	return editDistance(suggestion, typed) <= max(2, len(typed)/3)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// helpOrUnknown runs for a command that only groups others: without an
// argument it shows help, with one it is an unknown command (urfave itself
// would say "No help topic" and exit 3, our status for unreadable input).
func helpOrUnknown(c *urfave.Context) error {
	if !c.Args().Present() {
		if len(c.Lineage()) <= 2 { // the application itself
			return urfave.ShowAppHelp(c)
		}
		return urfave.ShowSubcommandHelp(c)
	}
	name := c.Args().First()
	var names []string
	cmds := c.App.Commands
	if c.Command != nil && len(c.Command.Subcommands) > 0 {
		cmds = c.Command.Subcommands
	}
	for _, sc := range cmds {
		if !sc.Hidden && sc.Name != "help" {
			names = append(names, sc.Name)
		}
	}
	for _, n := range names {
		if closeEnough(n, name) {
			return UsageErrorf("unknown command %q; did you mean %q?", name, n)
		}
	}
	return UsageErrorf("unknown command %q: use one of %s", name, strings.Join(names, ", "))
}
