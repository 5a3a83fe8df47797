package inspect

import (
	"context"
	"fmt"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/inspect/workers"
	urfave "github.com/urfave/cli/v2"
)

// Flags of `inspect workers`.
const (
	flagRestarts        = "restarts"
	flagRestartInterval = "restart-interval"
)

// WorkersOptions are `inspect workers`' inputs.
type WorkersOptions struct {
	cli.RESTOptions
	Restarts        time.Duration
	RestartInterval time.Duration
}

// NewCmdWorkers is `inspect workers`; run replaces the run function in tests.
func NewCmdWorkers(run func(*cli.Env, *WorkersOptions) error) *cli.Command {
	return cli.Verb(run, runWorkers, func(o *WorkersOptions) *cli.Command {
		return &cli.Command{
			Name:  "workers",
			Usage: "ask every member of the group through its REST URL: version, health, latency, plugins, or the error that kept it from answering",
			Description: `
Every member is asked at once through the REST URL it advertises in the group (GET /, /health,
/connector-plugins), each request and the whole round bounded; a worker that does not answer is a
row with its error. --restarts watches the group instead and measures each worker's restart.`,
			Examples: `
connectscope -b broker:9092 inspect workers
connectscope -b broker:9092 inspect workers -o json --jq '.workers[] | select(.error) | .worker'
connectscope -b broker:9092 inspect workers --restarts 30m -o json > restart-times.json`,
			Flags: append(o.RESTOptions.Flags(),
				&urfave.DurationFlag{Name: flagRestarts, Destination: &o.Restarts, Usage: "instead, watch for `DURATION` (or until Ctrl-C) and measure each worker's restart from /health and its rejoin"},
				&urfave.DurationFlag{Name: flagRestartInterval, Value: time.Second, Destination: &o.RestartInterval, Usage: "how often --restarts looks (`DURATION`)"}),
			Spec: askSpec((*workers.Result)(nil)),
		}
	})
}

func runWorkers(e *cli.Env, o *WorkersOptions) error {
	return ask(e, &o.RESTOptions, func(client *rest.Client, m *views.MembersResult, _ *views.Dataset) error {
		if e.Given(flagRestarts) {
			return watchRestarts(e, o, client)
		}
		res := workers.Ask(e.Ctx, client, m, rest.Calls{Health: true, Plugins: true})
		if err := answered(e, res); err != nil {
			return err
		}
		if err := res.NoneAnswered(); err != nil {
			return cli.InputError(err) // the rows above hold each worker's error
		}
		return nil
	})
}

// watchRestarts measures restarts live until --restarts ends or Ctrl-C,
// announcing each on stderr, and prints the measurement (the restart-times
// file) at the end.
func watchRestarts(e *cli.Env, o *WorkersOptions, client *rest.Client) error {
	g := e.Globals
	if !g.Live() {
		return cli.UsageErrorf("--%s watches a live cluster: give -b or --worker-config, not --from", flagRestarts)
	}
	if o.Restarts <= 0 || o.RestartInterval <= 0 {
		return cli.UsageErrorf("--%s and --%s must be positive durations", flagRestarts, flagRestartInterval)
	}
	conn, err := g.ConnOptions()
	if err != nil {
		return err
	}
	cl, err := live.NewClient(conn)
	if err != nil {
		return cli.InputError(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(e.Ctx, o.Restarts)
	defer cancel()
	describe := func(ctx context.Context) (*views.MembersResult, error) {
		dctx, cancel := context.WithTimeout(ctx, o.RestartInterval+5*time.Second)
		defer cancel()
		gd, err := live.DescribeGroup(dctx, cl, g.Group)
		if err != nil {
			return nil, err
		}
		m := views.MembersOf(gd)
		return &m, nil
	}
	res := workers.WatchRestarts(ctx, client, describe, o.RestartInterval, func(r workers.Restart) {
		fmt.Fprintf(e.IO.Err, "%s restarted in %s\n", format.EscapeLine(r.Worker), time.Duration(*r.RestartMs)*time.Millisecond)
	})
	// Ctrl-C ends a watch normally: what was measured is printed.
	return e.Emit(res)
}
