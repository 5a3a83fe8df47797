package top

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	urfave "github.com/urfave/cli/v2"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/sandbox"
)

const (
	sbFlagListen         = "listen"
	sbFlagWorkers        = "workers"
	sbFlagConnectors     = "connectors"
	sbFlagTasks          = "tasks"
	sbFlagProtocol       = "protocol"
	sbFlagSessionTimeout = "session-timeout"
	sbFlagHeartbeat      = "heartbeat-interval"
	sbFlagScheduledDelay = "scheduled-delay"
	sandboxStartTimeout  = 60 * time.Second
	sandboxShutdownLimit = 15 * time.Second
)

// SandboxOptions are `sandbox`'s inputs.
type SandboxOptions struct {
	Listen                                    string
	Workers, Connectors, Tasks                int
	Protocol                                  string
	SessionTimeout, Heartbeat, ScheduledDelay time.Duration
}

// NewCmdSandbox is `sandbox`; run replaces the run function in tests.
func NewCmdSandbox(run func(*cli.Env, *SandboxOptions) error) *cli.Command {
	return cli.Verb(run, runSandbox, func(o *SandboxOptions) *cli.Command {
		d := sandbox.DefaultConfig()
		return &cli.Command{
			Name:      "sandbox",
			Usage:     "run an embedded Kafka broker with simulated Connect workers, driven from standard input",
			UsageText: "connectscope sandbox [--listen ADDR] [--workers N] [--connectors N] [--tasks N]",
			Description: `
Starts a Kafka broker (franz-go's kfake) in this process, creates Connect's internal topics and
runs simulated workers that speak the Connect group protocol over the wire. Point connectscope
(or any Kafka client) at --listen while it runs. Type commands on standard input ('help' lists
them); every rebalance prints one line. End of input, 'quit' or Ctrl-C stops the workers cleanly.`,
			Examples: `
connectscope sandbox --listen 127.0.0.1:9092 --workers 4 --connectors 12 --tasks 3
connectscope -b 127.0.0.1:9092 inspect members      # in another terminal`,
			Flags: []urfave.Flag{
				&urfave.StringFlag{Name: sbFlagListen, Value: "127.0.0.1:9092", Destination: &o.Listen, Usage: "broker listen `ADDRESS` (port 0 picks a free port)"},
				&urfave.IntFlag{Name: sbFlagWorkers, Value: 3, Destination: &o.Workers, Usage: "workers to start with"},
				&urfave.IntFlag{Name: sbFlagConnectors, Value: 6, Destination: &o.Connectors, Usage: "connectors to create (every third is a sink)"},
				&urfave.IntFlag{Name: sbFlagTasks, Value: 2, Destination: &o.Tasks, Usage: "tasks per connector"},
				&urfave.StringFlag{Name: sbFlagProtocol, Value: d.Protocol, Destination: &o.Protocol, Usage: "connect.protocol of the workers, `PROTOCOL`: eager, compatible or sessioned"},
				&urfave.DurationFlag{Name: sbFlagSessionTimeout, Value: d.SessionTimeout, Destination: &o.SessionTimeout, Usage: "workers' session.timeout.ms (a killed worker leaves after it)"},
				&urfave.DurationFlag{Name: sbFlagHeartbeat, Value: d.HeartbeatInterval, Destination: &o.Heartbeat, Usage: "workers' heartbeat.interval.ms"},
				&urfave.DurationFlag{Name: sbFlagScheduledDelay, Value: d.ScheduledRebalanceMaxDelay, Destination: &o.ScheduledDelay, Usage: "scheduled.rebalance.max.delay.ms (0 = none)"},
			},
			Spec: cli.Spec{Offline: true, NoFormat: true,
				Values: map[string]cli.Candidates{sbFlagProtocol: cli.Fixed("eager", "compatible", "sessioned")}},
		}
	})
}

// config is the sandbox's configuration from the flags and globals.
func (o *SandboxOptions) config(g cli.Globals) (sandbox.Config, error) {
	cfg := sandbox.DefaultConfig()
	cfg.Listen = o.Listen
	cfg.GroupID = g.Group
	cfg.Topics = g.Topics
	p, err := sandbox.ParseProtocol(o.Protocol)
	if err != nil {
		return cfg, cli.UsageErrorf("--%s: %v", sbFlagProtocol, err)
	}
	cfg.Protocol = p
	cfg.SessionTimeout = o.SessionTimeout
	cfg.HeartbeatInterval = o.Heartbeat
	cfg.ScheduledRebalanceMaxDelay = o.ScheduledDelay
	if cfg.ScheduledRebalanceMaxDelay == 0 {
		cfg.ScheduledRebalanceMaxDelay = sandbox.NoDelay
	}
	for _, f := range []struct {
		name string
		n    int
	}{{sbFlagWorkers, o.Workers}, {sbFlagConnectors, o.Connectors}, {sbFlagTasks, o.Tasks}} {
		if f.n < 0 {
			return cfg, cli.UsageErrorf("--%s %d: must not be negative", f.name, f.n)
		}
	}
	if cfg.SessionTimeout <= 0 || cfg.HeartbeatInterval <= 0 || cfg.HeartbeatInterval >= cfg.SessionTimeout {
		return cfg, cli.UsageErrorf("--%s must be positive and shorter than --%s", sbFlagHeartbeat, sbFlagSessionTimeout)
	}
	return cfg, nil
}

func runSandbox(e *cli.Env, o *SandboxOptions) error {
	cfg, err := o.config(e.Globals)
	if err != nil {
		return err
	}
	// Names on these lines come from the sandbox's input and its broker:
	// text, never terminal control.
	out, errOut := format.TextWriter(e.IO.Out), format.TextWriter(e.IO.Err)
	cfg.Log = out
	ctx := e.Ctx
	sb, err := sandbox.Start(ctx, cfg)
	if err != nil {
		return cli.InputError(fmt.Errorf("starting the sandbox: %w", err))
	}
	defer sb.Close()
	startCtx, cancel := context.WithTimeout(ctx, sandboxStartTimeout)
	defer cancel()
	if err := sb.SeedConnectors(startCtx, o.Connectors, o.Tasks); err != nil {
		return cli.InputError(err)
	}
	if err := sb.AddWorkers(startCtx, o.Workers); err != nil {
		return cli.InputError(err)
	}
	if err := sb.WaitStable(startCtx); err != nil {
		return cli.InputError(err)
	}
	eff := sb.Config()
	fmt.Fprintf(out, "sandbox ready: Kafka at %s, Connect group %s (connect.protocol=%s), %d workers, %d connectors\n",
		sb.Bootstrap(), eff.GroupID, eff.Protocol, len(sb.Workers()), len(sb.Connectors()))
	fmt.Fprintf(out, "try: connectscope -b %s inspect members\n", sb.Bootstrap())
	fmt.Fprintln(out, "type 'help' for commands; 'quit', end of input or Ctrl-C stops the workers cleanly")

	sh := &sandbox.Shell{C: sb, Out: out}
	runShell(ctx, sh, e.IO.In, errOut)

	stopCtx, cancelStop := context.WithTimeout(context.WithoutCancel(ctx), sandboxShutdownLimit)
	defer cancelStop()
	if err := sb.StopAll(stopCtx); err != nil {
		fmt.Fprintf(errOut, "connectscope: stopping workers: %v\n", err)
	}
	fmt.Fprintln(out, "sandbox stopped")
	return nil
}

// runShell executes input lines until quit, end of input or ctx ends. A
// failing command prints its error and the shell goes on.
func runShell(ctx context.Context, sh *sandbox.Shell, in io.Reader, errOut io.Writer) {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case line, ok := <-lines:
			if !ok {
				return
			}
			err := sh.Exec(ctx, line)
			if errors.Is(err, sandbox.ErrQuit) {
				return
			}
			if err != nil {
				fmt.Fprintf(errOut, "error: %v\n", err)
			}
		}
	}
}
