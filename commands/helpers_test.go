package commands

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"
)

// probed is what the hidden probe command saw on its last run.
var probed Globals

// The probe command lets tests look at the resolved Globals; it is hidden
// and only exists in test binaries.
func init() {
	testCommands = append(testCommands, &cli.Command{
		Name:   "probe",
		Hidden: true,
		Subcommands: []*cli.Command{{
			Name:   "leaf",
			Flags:  []cli.Flag{&cli.StringFlag{Name: "own"}},
			Action: action(func(c *cli.Context, g Globals) error { probed = g; return nil }),
		}, {
			// Interrupts itself, then waits like a long read would.
			Name: "interrupt",
			Action: func(c *cli.Context) error {
				if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
					return err
				}
				<-c.Context.Done()
				return fmt.Errorf("reading: %w", c.Context.Err())
			},
		}, {
			// A command with its own -o (like snapshot's output file).
			Name:  "writer",
			Flags: []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}}},
			Action: action(func(c *cli.Context, g Globals) error {
				probed = g
				_, err := c.App.Writer.Write([]byte("file=" + c.String("output") + "\n"))
				return err
			}),
		}},
	})
}

// run executes connectscope in-process and returns stdout, stderr and the
// exit status.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"connectscope"}, args...), Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, BuildInfo{Version: "v9.9.9-test"})
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
