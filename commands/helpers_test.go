package commands

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	urfave "github.com/urfave/cli/v2"
)

// The exit statuses the tests expect of Main, as the README documents
// them (the kit's).
const (
	ExitFindings    = cli.ExitFindings
	ExitUsage       = cli.ExitUsage
	ExitInput       = cli.ExitInput
	ExitNotFound    = cli.ExitNotFound
	ExitInterrupted = cli.ExitInterrupted
)

// Globals are the resolved global flags the probe command sees.
type Globals = cli.Globals

// probed is what the hidden probe command saw on its last run.
var probed Globals

// probeCommands are hidden commands only the tests' application has: they
// let tests look at the resolved Globals and at interrupts.
func probeCommands() []*cli.Command {
	return []*cli.Command{{
		Name:   "probe",
		Hidden: true,
		Subcommands: []*cli.Command{{
			Name:  "leaf",
			Flags: []urfave.Flag{&urfave.StringFlag{Name: "own"}},
			Run:   func(e *cli.Env) error { probed = e.Globals; return nil },
		}, {
			// Interrupts itself, then waits like a long read would.
			Name: "interrupt",
			Spec: cli.Spec{NoGlobals: true},
			Run: func(e *cli.Env) error {
				if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
					return err
				}
				<-e.Ctx.Done()
				return fmt.Errorf("reading: %w", e.Ctx.Err())
			},
		}, writerProbe()},
	}}
}

// writerProbe is a command with its own -o (like snapshot's output file).
func writerProbe() *cli.Command {
	var file string
	return &cli.Command{
		Name:  "writer",
		Flags: []urfave.Flag{&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &file}},
		Run: func(e *cli.Env) error {
			probed = e.Globals
			_, err := e.IO.Out.Write([]byte("file=" + file + "\n"))
			return err
		},
	}
}

// run executes connectscope, with the probe commands, in-process and
// returns stdout, stderr and the exit status.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	s := Streams{In: strings.NewReader(""), Out: &out, Err: &errb}
	app := newApp(BuildInfo{Version: "v9.9.9-test"}, s, func() []*cli.Command { return append(tree(), probeCommands()...) })
	code = cli.Run(app, append([]string{"connectscope"}, args...))
	return out.String(), errb.String(), code
}

// probe runs `connectscope ARGS` where ARGS name the probe command, and
// returns the Globals it resolved.
func probe(t *testing.T, args ...string) Globals {
	t.Helper()
	probed = Globals{}
	_, stderr, code := run(t, args...)
	if code != 0 {
		t.Fatalf("connectscope %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return probed
}
