package top

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/connectscope/connectscope/commands/cli"

	"github.com/connectscope/connectscope/sandbox"
)

const demoTimeout = 60 * time.Second

// NewCmdDemo is `demo`.
func NewCmdDemo() *cli.Command {
	return cli.Plain(nil, runDemo, &cli.Command{
		Name:  "demo",
		Usage: "a short tour on an embedded Kafka with 3 simulated Connect workers (no cluster needed)",
		Description: `
Starts the sandbox in this process (3 workers, sources and sinks, one failed task), waits until
the group is stable, then runs inspect, plan and check against it, each headed by the command
you would type against your own cluster. Everything stops when the tour ends.`,
		Examples: `
connectscope demo
go run ./cmd/connectscope demo`,
		Spec: cli.Spec{Offline: true, NoFormat: true},
	})
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

func runDemo(e *cli.Env) error {
	out := e.IO.Out
	ctx, cancel := context.WithTimeout(e.Ctx, demoTimeout)
	defer cancel()

	cfg := sandbox.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.SessionTimeout = 2 * time.Second
	cfg.HeartbeatInterval = 50 * time.Millisecond
	sb, err := sandbox.Start(ctx, cfg)
	if err != nil {
		return cli.InputError(fmt.Errorf("starting the embedded Kafka: %w", err))
	}
	defer sb.Close()
	fmt.Fprintln(out, "Starting an embedded Kafka broker with 3 simulated Connect workers...")
	if err := demoCluster(ctx, sb); err != nil {
		return cli.InputError(fmt.Errorf("setting up the demo cluster: %w", err))
	}
	addr := sb.Bootstrap()
	fmt.Fprintf(out, "Kafka is at %s: group %s, connect.protocol=%s, %d connectors (sources and sinks), task payments-cdc-1 failed.\n",
		addr, sb.GroupID(), sb.Config().Protocol, len(sb.Connectors()))
	fmt.Fprintln(out, "Each step shows the command to run against your own cluster (replace broker:9092).")

	for _, st := range demoSteps() {
		if !e.HasCommand(st.args) {
			continue
		}
		fmt.Fprintf(out, "\n# %s\n$ connectscope -b broker:9092 %s\n", st.why, strings.Join(st.args, " "))
		args := append([]string{"connectscope", "-b", addr}, st.args...)
		code := e.Main(args, cli.Streams{In: strings.NewReader(""), Out: out, Err: out})
		if code != cli.ExitOK && code != cli.ExitFindings {
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
