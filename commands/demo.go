package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/connectscope/connectscope/sandbox"
)

const demoTimeout = 60 * time.Second

// demoCommand is the `demo` command.
func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "a short tour on an embedded Kafka with 3 simulated Connect workers (no cluster needed)",
		Description: "Starts the sandbox in this process (3 workers, sources and sinks, one failed task), waits until\n" +
			"the group is stable, then runs inspect, plan and check against it, each headed by the command\n" +
			"you would type against your own cluster. Everything stops when the tour ends.",
		Action: action(runDemo),
	}
}

// demoConnectors is the tour's cluster: sources and sinks, one task failing.
var demoConnectors = []sandbox.ConnectorSpec{
	{Name: "orders-cdc", Kind: sandbox.KindSource, Tasks: 3},
	{Name: "payments-cdc", Kind: sandbox.KindSource, Tasks: 2},
	{Name: "search-es", Kind: sandbox.KindSink, Tasks: 2},
	{Name: "archive-s3", Kind: sandbox.KindSink, Tasks: 1},
}

// demoStep is one command of the tour; it runs only if this build has it.
type demoStep struct {
	args []string
	why  string
}

func demoSteps() []demoStep {
	steps := []demoStep{
		{[]string{"inspect", "connectors"}, "one line per connector: type, target and actual state, tasks running and failed"},
		{[]string{"inspect", "members"}, "the Connect group as the broker describes it: protocol, leader, what each worker owns"},
		{[]string{"plan", "join", "--add", "1"}, "what happens, round by round, if one more worker joins"},
	}
	return append(steps, demoStep{[]string{"check", "all"}, "every check whose inputs are available: misconfigurations and risks"})
}

// hasCommand says whether args (up to the first flag) name one of connectscope's
// command and subcommands.
func hasCommand(args []string) bool {
	cmds := topCommands()
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		var next *cli.Command
		for _, c := range cmds {
			if c.Name == a {
				next = c
			}
		}
		if next == nil {
			return false
		}
		cmds = next.Subcommands
	}
	return len(args) > 0
}

func runDemo(c *cli.Context, _ Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	out := c.App.Writer
	ctx, cancel := context.WithTimeout(c.Context, demoTimeout)
	defer cancel()

	cfg := sandbox.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.SessionTimeout = 2 * time.Second
	cfg.HeartbeatInterval = 50 * time.Millisecond
	sb, err := sandbox.Start(ctx, cfg)
	if err != nil {
		return InputError(fmt.Errorf("starting the embedded Kafka: %w", err))
	}
	defer sb.Close()
	fmt.Fprintln(out, "Starting an embedded Kafka broker with 3 simulated Connect workers...")
	if err := demoCluster(ctx, sb); err != nil {
		return InputError(fmt.Errorf("setting up the demo cluster: %w", err))
	}
	addr := sb.Bootstrap()
	fmt.Fprintf(out, "Kafka is at %s: group %s, connect.protocol=%s, %d connectors (sources and sinks), task payments-cdc-1 failed.\n",
		addr, sb.GroupID(), sb.Config().Protocol, len(sb.Connectors()))
	fmt.Fprintln(out, "Each step shows the command to run against your own cluster (replace broker:9092).")

	info, _ := c.App.Metadata[buildInfoKey].(BuildInfo)
	for _, st := range demoSteps() {
		if !hasCommand(st.args) {
			continue
		}
		fmt.Fprintf(out, "\n# %s\n$ connectscope -b broker:9092 %s\n", st.why, strings.Join(st.args, " "))
		args := append([]string{"connectscope", "-b", addr}, st.args...)
		code := Main(args, Streams{In: strings.NewReader(""), Out: out, Err: out}, info)
		if code != ExitOK && code != ExitFindings {
			fmt.Fprintf(out, "(exit status %d)\n", code)
		}
	}
	fmt.Fprintln(out, "\nTry it yourself: connectscope sandbox --listen 127.0.0.1:9092, then connectscope -b 127.0.0.1:9092 inspect members")

	stopCtx, cancelStop := context.WithTimeout(context.WithoutCancel(ctx), sandboxShutdownLimit)
	defer cancelStop()
	return sb.StopAll(stopCtx)
}

// demoCluster creates the tour's connectors and workers, fails one task and
// waits until nothing moves.
func demoCluster(ctx context.Context, sb *sandbox.Cluster) error {
	for _, spec := range demoConnectors {
		if err := sb.AddConnector(ctx, spec); err != nil {
			return err
		}
	}
	if err := sb.AddWorkers(ctx, 3); err != nil {
		return err
	}
	if err := sb.WaitStable(ctx); err != nil {
		return err
	}
	if err := sb.FailTask(ctx, "payments-cdc", 1); err != nil {
		return err
	}
	return sb.WaitStable(ctx)
}
