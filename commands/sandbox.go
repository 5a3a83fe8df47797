package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

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

// sandboxCommand is the `sandbox` command.
func sandboxCommand() *cli.Command {
	d := sandbox.DefaultConfig()
	return &cli.Command{
		Name:      "sandbox",
		Usage:     "run an embedded Kafka broker with simulated Connect workers, driven from standard input",
		UsageText: "connectscope sandbox [--listen ADDR] [--workers N] [--connectors N] [--tasks N]",
		Description: "Starts a Kafka broker (franz-go's kfake) in this process, creates Connect's internal topics and\n" +
			"runs simulated workers that speak the Connect group protocol over the wire. Point connectscope\n" +
			"(or any Kafka client) at --listen while it runs. Type commands on standard input ('help' lists\n" +
			"them); every rebalance prints one line. End of input, 'quit' or Ctrl-C stops the workers cleanly.\n\n" +
			"Example:\n" +
			"  connectscope sandbox --listen 127.0.0.1:9092 --workers 4 --connectors 12 --tasks 3\n" +
			"  connectscope -b 127.0.0.1:9092 inspect members      # in another terminal",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: sbFlagListen, Value: "127.0.0.1:9092", Usage: "broker listen `ADDRESS` (port 0 picks a free port)"},
			&cli.IntFlag{Name: sbFlagWorkers, Value: 3, Usage: "workers to start with"},
			&cli.IntFlag{Name: sbFlagConnectors, Value: 6, Usage: "connectors to create (every third is a sink)"},
			&cli.IntFlag{Name: sbFlagTasks, Value: 2, Usage: "tasks per connector"},
			&cli.StringFlag{Name: sbFlagProtocol, Value: d.Protocol, Usage: "connect.protocol of the workers: eager, compatible or sessioned"},
			&cli.DurationFlag{Name: sbFlagSessionTimeout, Value: d.SessionTimeout, Usage: "workers' session.timeout.ms (a killed worker leaves after it)"},
			&cli.DurationFlag{Name: sbFlagHeartbeat, Value: d.HeartbeatInterval, Usage: "workers' heartbeat.interval.ms"},
			&cli.DurationFlag{Name: sbFlagScheduledDelay, Value: d.ScheduledRebalanceMaxDelay, Usage: "scheduled.rebalance.max.delay.ms (0 = none)"},
		},
		Action: action(runSandbox),
	}
}

func sandboxConfig(c *cli.Context, g Globals) (sandbox.Config, error) {
	cfg := sandbox.DefaultConfig()
	cfg.Listen = c.String(sbFlagListen)
	cfg.GroupID = g.Group
	cfg.Topics = g.Topics
	p, err := sandbox.ParseProtocol(c.String(sbFlagProtocol))
	if err != nil {
		return cfg, UsageErrorf("--%s: %v", sbFlagProtocol, err)
	}
	cfg.Protocol = p
	cfg.SessionTimeout = c.Duration(sbFlagSessionTimeout)
	cfg.HeartbeatInterval = c.Duration(sbFlagHeartbeat)
	cfg.ScheduledRebalanceMaxDelay = c.Duration(sbFlagScheduledDelay)
	if cfg.ScheduledRebalanceMaxDelay == 0 {
		cfg.ScheduledRebalanceMaxDelay = sandbox.NoDelay
	}
	for _, f := range []string{sbFlagWorkers, sbFlagConnectors, sbFlagTasks} {
		if c.Int(f) < 0 {
			return cfg, UsageErrorf("--%s %d: must not be negative", f, c.Int(f))
		}
	}
	if cfg.SessionTimeout <= 0 || cfg.HeartbeatInterval <= 0 || cfg.HeartbeatInterval >= cfg.SessionTimeout {
		return cfg, UsageErrorf("--%s must be positive and shorter than --%s", sbFlagHeartbeat, sbFlagSessionTimeout)
	}
	return cfg, nil
}

func runSandbox(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	cfg, err := sandboxConfig(c, g)
	if err != nil {
		return err
	}
	out := c.App.Writer
	cfg.Log = out
	ctx := c.Context
	sb, err := sandbox.Start(ctx, cfg)
	if err != nil {
		return InputError(fmt.Errorf("starting the sandbox: %w", err))
	}
	defer sb.Close()
	startCtx, cancel := context.WithTimeout(ctx, sandboxStartTimeout)
	defer cancel()
	if err := sb.SeedConnectors(startCtx, c.Int(sbFlagConnectors), c.Int(sbFlagTasks)); err != nil {
		return InputError(err)
	}
	if err := sb.AddWorkers(startCtx, c.Int(sbFlagWorkers)); err != nil {
		return InputError(err)
	}
	if err := sb.WaitStable(startCtx); err != nil {
		return InputError(err)
	}
	eff := sb.Config()
	fmt.Fprintf(out, "sandbox ready: Kafka at %s, Connect group %s (connect.protocol=%s), %d workers, %d connectors\n",
		sb.Bootstrap(), eff.GroupID, eff.Protocol, len(sb.Workers()), len(sb.Connectors()))
	fmt.Fprintf(out, "try: connectscope -b %s inspect members\n", sb.Bootstrap())
	fmt.Fprintln(out, "type 'help' for commands; 'quit', end of input or Ctrl-C stops the workers cleanly")

	sh := &sandbox.Shell{C: sb, Out: out}
	runShell(ctx, sh, c.App.Reader, c.App.ErrWriter)

	stopCtx, cancelStop := context.WithTimeout(context.WithoutCancel(ctx), sandboxShutdownLimit)
	defer cancelStop()
	if err := sb.StopAll(stopCtx); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "connectscope: stopping workers: %v\n", err)
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
