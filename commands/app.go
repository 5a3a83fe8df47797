// Package commands wires connectscope's command line: flags, help and exit
// codes. The work itself lives in inspect/, plan/ and check/.
package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/connectscope/connectscope/format"
	"github.com/urfave/cli/v2"
)

// topCommands are connectscope's commands, each declared in its own file.
func topCommands() []*cli.Command {
	return []*cli.Command{
		checkCommand,
		completionCommand,
		demoCommand(),
		inspectCommand,
		planCommand,
		sandboxCommand(),
		snapshotCommand,
		versionCommand,
		watchCommand,
	}
}

// testCommands are hidden commands that test binaries add (probes of the
// resolved globals and of the loaders); empty in connectscope itself.
var testCommands []*cli.Command

// Streams are where a run reads and writes; tests pass buffers.
type Streams struct {
	In  io.Reader
	Out io.Writer // results only
	Err io.Writer // diagnostics only
}

// StdStreams are the process's standard streams.
func StdStreams() Streams { return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }

// globalFlagsKey names the set of global flag copies in App.Metadata, so the
// resolver can tell them from a command's own flag of the same name.
const globalFlagsKey = "connectscope.globalFlags"

// NewApp builds the connectscope application: its commands (topCommands), each
// with its own copy of the global flags. Errors are returned from Run, never
// turned into os.Exit here; Main maps them to exit statuses.
func NewApp(info BuildInfo, s Streams) *cli.App {
	ours := map[cli.Flag]bool{}
	rootFlags := globalFlags(true)
	for _, f := range rootFlags {
		ours[f] = true
	}
	cmds := []*cli.Command{}
	for _, c := range append(topCommands(), testCommands...) {
		cmds = append(cmds, withGlobalFlags(c, ours))
	}
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	info = info.resolved()
	return &cli.App{
		Name:                 "connectscope",
		Usage:                "see what Kafka Connect's group protocol and internal topics are doing",
		Description:          "Reads a Connect cluster live (-b or --worker-config) or from a file (--from), without ever writing to it.",
		Version:              info.Version,
		Flags:                rootFlags,
		Commands:             cmds,
		EnableBashCompletion: true,
		Suggest:              true,
		Reader:               s.In,
		Writer:               s.Out,
		ErrWriter:            s.Err,
		Metadata:             map[string]any{globalFlagsKey: ours, buildInfoKey: info},
		Action:               helpOrUnknown,
		OnUsageError:         flagUsageError,
		ExitErrHandler:       func(*cli.Context, error) {}, // Main reports; urfave must not os.Exit
	}
}

// withGlobalFlags copies cmd and its subcommands, adding fresh global flags
// to each (skipping any whose name the command already uses for a flag of
// its own). The registered commands are left untouched, so NewApp can run
// more than once in a process.
func withGlobalFlags(cmd *cli.Command, ours map[cli.Flag]bool) *cli.Command {
	cp := *cmd
	cp.Flags = slices.Clone(cmd.Flags)
	taken := map[string]bool{}
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			taken[n] = true
		}
	}
	for _, f := range globalFlags(false) {
		clash := false
		for _, n := range f.Names() {
			clash = clash || taken[n]
		}
		if !clash {
			cp.Flags = append(cp.Flags, f)
			ours[f] = true
		}
	}
	cp.Subcommands = nil
	for _, sub := range cmd.Subcommands {
		cp.Subcommands = append(cp.Subcommands, withGlobalFlags(sub, ours))
	}
	checkRequiredInBefore(&cp)
	if cp.OnUsageError == nil {
		cp.OnUsageError = flagUsageError
	}
	if cp.Action == nil && len(cp.Subcommands) > 0 {
		cp.Action = helpOrUnknown
	}
	return &cp
}

// flagUsageError turns urfave's flag parsing errors into exit status 2,
// suggesting the flag that was probably meant.
func flagUsageError(c *cli.Context, err error, _ bool) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		return UsageErrorf("--%s: %q is not %s", m[2], m[1], valueKind(c, m[2]))
	}
	if name, ok := strings.CutPrefix(msg, undefined); ok && c != nil && c.Command != nil && cli.SuggestFlag != nil {
		if s := cli.SuggestFlag(c.Command.Flags, name, false); s != "" && closeEnough(strings.TrimLeft(s, "-"), name) {
			return UsageErrorf("%s; did you mean %s?", msg, s)
		}
	}
	return Exit(ExitUsage, err)
}

// badFlagValue is Go's flag package rejecting a value: `invalid value "soon"
// for flag -timeout: parse error`.
var badFlagValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// valueKind says what a flag's value should look like, for the error.
func valueKind(c *cli.Context, name string) string {
	var flags []cli.Flag
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
		case *cli.DurationFlag:
			return "a duration: give one like 30s, 2m or 1m30s"
		case *cli.IntFlag, *cli.Int64Flag:
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
func helpOrUnknown(c *cli.Context) error {
	if !c.Args().Present() {
		if len(c.Lineage()) <= 2 { // the application itself
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
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

// Main runs connectscope with args and returns the exit status. An error is
// printed as one line, `connectscope: MESSAGE`, on s.Err; usage errors point
// at the command's help. Only package main calls os.Exit with the result.
func Main(args []string, s Streams, info BuildInfo) int {
	app := NewApp(info, s)
	where := ""
	app.ExitErrHandler = func(c *cli.Context, err error) {
		if where == "" && c != nil && c.Command != nil && c.Command.HelpName != "" {
			where = c.Command.HelpName
		}
	}
	// Process-wide settings are Main's: a command asks for them (a live read
	// asks for the live GC target) and Main applies and, on return, undoes
	// them, so that a run never changes the next one in the same process.
	restoreGC := func() {}
	var liveGC sync.Once
	app.Metadata[liveMemoryKey] = func() {
		liveGC.Do(func() {
			prev := debug.SetGCPercent(liveGCPercent)
			restoreGC = func() { debug.SetGCPercent(prev) }
		})
	}
	defer func() { restoreGC() }()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := app.RunContext(ctx, args)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// Ctrl-C or SIGTERM: say so, with the shell's status for an interrupt.
		fmt.Fprintf(s.Err, "%s: interrupted\n", app.Name)
		return ExitInterrupted
	}
	code, usage := exitStatus(err)
	if err != nil {
		msg := oneLine(err.Error())
		if usage {
			if where == "" {
				where = app.Name
			}
			msg += fmt.Sprintf(" (see '%s --help')", where)
		}
		fmt.Fprintf(s.Err, "%s: %s\n", app.Name, msg)
	}
	return code
}

// liveMemoryKey names, in App.Metadata, Main's hook that applies the live
// GC target.
const liveMemoryKey = "connectscope.liveMemory"

// liveGCPercent is the collector's target for the rest of a run that reads
// a live cluster. A live read holds the topics' bytes and decodes them in
// one go; a collector that lets the heap grow by half, not double, keeps
// peak memory near what is really held (BENCHMARKS.md: under 3x the topic).
const liveGCPercent = 50

// useLiveMemory asks Main for the live GC target (once per run; nothing
// when the app runs without Main).
func useLiveMemory(c *cli.Context) {
	if apply, ok := c.App.Metadata[liveMemoryKey].(func()); ok {
		apply()
	}
}

// action adapts a command body that works on resolved Globals.
func action(fn func(c *cli.Context, g Globals) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		g, err := globalsFrom(c)
		if err != nil {
			return err
		}
		return fn(c, g)
	}
}

// noArgs rejects positional arguments a command does not take.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return UsageErrorf("unexpected argument %q", c.Args().First())
	}
	return nil
}

// emit is the one output pipeline: every command prints its result through
// it, in the format the global flags ask for.
func emit(c *cli.Context, g Globals, result any) error {
	opts := g.FormatOptions()
	if err := format.Write(c.App.Writer, result, opts); err != nil {
		return err // *format.UsageError maps to exit 2 in Main
	}
	return nil
}
