package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/connectscope/connectscope/plan/assignor"
)

// ErrQuit is returned by Shell.Exec for "quit".
var ErrQuit = errors.New("quit")

// Shell runs the line commands of `connectscope sandbox` against a cluster.
type Shell struct {
	C   *Cluster
	Out io.Writer
}

type shellCommand struct {
	usage string
	help  string
	args  int // minimum arguments
	run   func(s *Shell, ctx context.Context, args []string) error
}

var shellCommands = []struct {
	name string
	cmd  shellCommand
}{
	{"help", shellCommand{"help", "list the commands", 0, nil}}, // run by Exec (it lists this table)
	{"add-worker", shellCommand{"add-worker [NAME] [eager|compatible|sessioned]", "start a worker", 0, runAddWorker}},
	{"stop", shellCommand{"stop WORKER", "stop a worker cleanly (LeaveGroup)", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.StopWorker(ctx, a[0])
	}}},
	{"kill", shellCommand{"kill WORKER", "crash a worker (expires after the session timeout)", 1, func(s *Shell, _ context.Context, a []string) error {
		return s.C.KillWorker(a[0])
	}}},
	{"restart", shellCommand{"restart WORKER", "stop a worker cleanly and start it again", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.RestartWorker(ctx, a[0])
	}}},
	{"add-connector", shellCommand{"add-connector NAME TASKS [source|sink]", "create a connector", 2, runAddConnector}},
	{"remove", shellCommand{"remove CONNECTOR", "delete a connector", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.RemoveConnector(ctx, a[0])
	}}},
	{"tasks", shellCommand{"tasks CONNECTOR N", "reconfigure a connector to N tasks", 2, func(s *Shell, ctx context.Context, a []string) error {
		n, err := strconv.Atoi(a[1])
		if err != nil || n < 0 {
			return fmt.Errorf("task count %q: want a number >= 0", a[1])
		}
		return s.C.ReconfigureConnector(ctx, a[0], n)
	}}},
	{"pause", shellCommand{"pause CONNECTOR", "pause a connector (no rebalance)", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.PauseConnector(ctx, a[0])
	}}},
	{"resume", shellCommand{"resume CONNECTOR", "resume a paused or stopped connector", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.ResumeConnector(ctx, a[0])
	}}},
	{"stop-connector", shellCommand{"stop-connector CONNECTOR", "stop a connector (its tasks are revoked)", 1, func(s *Shell, ctx context.Context, a []string) error {
		return s.C.StopConnector(ctx, a[0])
	}}},
	{"fail", shellCommand{"fail CONNECTOR-N", "make a task fail", 1, func(s *Shell, ctx context.Context, a []string) error {
		id, err := assignor.ParseTaskID(a[0])
		if err != nil {
			return err
		}
		return s.C.FailTask(ctx, id.Connector, id.Task)
	}}},
	{"wait", shellCommand{"wait", "wait until no rebalance is running or scheduled", 0, func(s *Shell, ctx context.Context, _ []string) error {
		if err := s.C.WaitStable(ctx); err != nil {
			return err
		}
		fmt.Fprintln(s.Out, "stable")
		return nil
	}}},
	{"status", shellCommand{"status", "show workers and connectors", 0, func(s *Shell, _ context.Context, _ []string) error {
		s.status()
		return nil
	}}},
	{"quit", shellCommand{"quit", "stop every worker cleanly and exit (also: exit, end of input)", 0, func(*Shell, context.Context, []string) error {
		return ErrQuit
	}}},
}

func lookupShellCommand(name string) (shellCommand, bool) {
	if name == "exit" {
		name = "quit"
	}
	for _, c := range shellCommands {
		if c.name == name {
			return c.cmd, true
		}
	}
	return shellCommand{}, false
}

// Exec runs one input line. Blank lines and # comments do nothing; "quit"
// returns ErrQuit.
func (s *Shell) Exec(ctx context.Context, line string) error {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return nil
	}
	cmd, ok := lookupShellCommand(fields[0])
	if !ok {
		return fmt.Errorf("unknown command %q (type help)", fields[0])
	}
	if len(fields)-1 < cmd.args {
		return fmt.Errorf("usage: %s", cmd.usage)
	}
	if cmd.run == nil {
		s.help()
		return nil
	}
	return cmd.run(s, ctx, fields[1:])
}

func (s *Shell) help() {
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	for _, c := range shellCommands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.cmd.usage, c.cmd.help)
	}
	tw.Flush()
}

func runAddWorker(s *Shell, ctx context.Context, a []string) error {
	name, protocol := "", ""
	for _, arg := range a {
		if _, err := ParseProtocol(arg); err == nil {
			protocol = arg
		} else if name == "" {
			name = arg
		} else {
			return fmt.Errorf("usage: add-worker [NAME] [eager|compatible|sessioned]")
		}
	}
	_, err := s.C.AddWorker(ctx, name, protocol)
	return err
}

func runAddConnector(s *Shell, ctx context.Context, a []string) error {
	n, err := strconv.Atoi(a[1])
	if err != nil || n < 0 {
		return fmt.Errorf("task count %q: want a number >= 0", a[1])
	}
	kind := KindSource
	if len(a) > 2 {
		kind = a[2]
	}
	return s.C.AddConnector(ctx, ConnectorSpec{Name: a[0], Kind: kind, Tasks: n})
}

// status prints the workers (what each owns) and the connectors.
func (s *Shell) status() {
	c := s.C
	fmt.Fprintf(s.Out, "broker %s, group %s\n", c.Bootstrap(), c.GroupID())
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKER\tPROTOCOL\tGENERATION\tCONNECTORS\tTASKS\tOWNS")
	for _, w := range c.WorkerStates() {
		owns := append([]string(nil), w.Owned.Connectors...)
		for _, t := range w.Owned.Tasks {
			owns = append(owns, t.String())
		}
		state := ""
		if w.MemberID != "" && w.MemberID == w.Leader {
			state = " (leader)"
		}
		if w.Joining {
			state += " (joining)"
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%d\t%d\t%d\t%s\n", w.Name, state, w.Protocol, w.Generation,
			len(w.Owned.Connectors), len(w.Owned.Tasks), strings.Join(owns, " "))
	}
	tw.Flush()
	tw = tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONNECTOR\tTYPE\tTARGET\tTASKS\tFAILED")
	for _, ci := range c.Connectors() {
		failed := "-"
		if len(ci.Failed) > 0 {
			var fs []string
			for _, n := range ci.Failed {
				fs = append(fs, strconv.Itoa(n))
			}
			failed = strings.Join(fs, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", ci.Name, ci.Kind, ci.Target, ci.Tasks, failed)
	}
	tw.Flush()
}
