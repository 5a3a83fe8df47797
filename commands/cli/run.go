package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"

	urfave "github.com/urfave/cli/v2"
)

// Run runs app with args and returns the exit status. An error is printed
// as one line, `connectscope: MESSAGE`, on the app's error stream; usage
// errors point at the command's help. Only package main calls os.Exit with
// the result.
func Run(app *urfave.App, args []string) int {
	where := ""
	app.ExitErrHandler = func(c *urfave.Context, err error) {
		if where == "" && c != nil && c.Command != nil && c.Command.HelpName != "" {
			where = c.Command.HelpName
		}
	}
	// Process-wide settings are Main's: a command asks for them (a live read
	// asks for the live GC target) and Main applies and, on return, undoes
	// them, so that a run never changes the next one in the same process.
	restoreGC := func() {}
	var saveGC sync.Once
	setGC := func(percent int) {
		prev := debug.SetGCPercent(percent)
		saveGC.Do(func() { restoreGC = func() { debug.SetGCPercent(prev) } })
	}
	var liveGC, sweepGC sync.Once
	app.Metadata[liveMemoryKey] = func() { liveGC.Do(func() { setGC(liveGCPercent) }) }
	app.Metadata[sweepMemoryKey] = func() { sweepGC.Do(func() { setGC(sweepGCPercent) }) }
	defer func() { restoreGC() }()
	// urfave/cli v2 writes package variables (HelpFlag, VersionFlag, its
	// help command) while it sets an app up and parses the command line,
	// so apps in one process (tests in parallel; the tour, whose steps run
	// inside its own) set up one at a time. A verb releases the lock as it
	// starts: a long command, or one that runs another, holds nothing.
	defer holdSetup(app)()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	finished, err := runUntilInterrupted(ctx, func() error { return app.RunContext(ctx, flagsFirst(app, joinPairs(args))) })
	if !finished || (err != nil && ctx.Err() != nil) {
		// Ctrl-C or SIGTERM: whatever the command was doing when it stopped
		// (a retry, a deadline, a half-read topic), say one thing, with the
		// shell's status for an interrupt.
		fmt.Fprintf(app.ErrWriter, "%s: interrupted\n", app.Name)
		return ExitInterrupted
	}
	code, usage := exitStatus(err)
	if err != nil {
		msg := ErrorLine(err)
		if usage {
			if where == "" {
				where = app.Name
			}
			msg += fmt.Sprintf(" (see '%s --help')", where)
		}
		fmt.Fprintf(app.ErrWriter, "%s: %s\n", app.Name, msg)
	}
	return code
}

// urfaveSetup is held from Run's start until the verb starts (or Run ends).
var urfaveSetup sync.Mutex

// setupDoneKey names, in App.Metadata, the release of urfaveSetup.
const setupDoneKey = "connectscope.setupDone"

// holdSetup takes urfaveSetup for app until its verb starts or the
// returned release (safe to call twice) is called.
func holdSetup(app *urfave.App) (release func()) {
	urfaveSetup.Lock()
	release = sync.OnceFunc(urfaveSetup.Unlock)
	app.Metadata[setupDoneKey] = release
	return release
}

// liveMemoryKey names, in App.Metadata, Main's hook that applies the live
// GC target.
const liveMemoryKey = "connectscope.liveMemory"

// liveGCPercent is the collector's target for the rest of a run that reads
// a live cluster. A live read holds the topics' bytes and decodes them in
// one go; a collector that lets the heap grow by half, not double, keeps
// peak memory near what is really held (BENCHMARKS.md: under 3x the topic).
const liveGCPercent = 50

// sweepMemoryKey names, in App.Metadata, Main's hook that applies the
// sweep's GC target.
const sweepMemoryKey = "connectscope.sweepMemory"

// sweepGCPercent is the collector's target while plan advise sweeps: its
// simulations make short-lived garbage round after round over a small
// live heap, and collecting at 4x instead of 2x the live heap took a fifth
// of its CPU time off for about twice the peak memory (BENCHMARKS.md: 38
// to 73 MiB at 100 workers).
const sweepGCPercent = 400
