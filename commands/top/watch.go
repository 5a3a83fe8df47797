package top

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// WatchOptions are `watch`'s inputs.
type WatchOptions struct {
	Duration time.Duration // 0: until interrupted
	Interval time.Duration
}

// NewCmdWatch is `watch`; run replaces the run function in tests.
func NewCmdWatch(run func(*cli.Env, *WatchOptions) error) *cli.Command {
	return cli.Verb(run, runWatch, func(o *WatchOptions) *cli.Command {
		return &cli.Command{
			Name:  "watch",
			Usage: "follow the Connect group and the status topic and print events as they happen",
			Description: `
Describes the Connect group every --interval and follows the status topic from its end, printing
rebalances (start, completion, members joining and leaving, what moved) and connector and task
state changes with their worker. On Ctrl-C or after --duration it prints a summary: rebalances,
their durations, and the task time spent not RUNNING. Nothing is written to the cluster.`,
			Examples: `
connectscope -b broker:9092 watch
connectscope -b broker:9092 watch --duration 10m -o jsonl > events.jsonl
connectscope -b broker:9092 watch -o jsonl --jq 'select(.type=="task_state" and .state=="FAILED") | .task'`,
			Flags: []urfave.Flag{
				&urfave.DurationFlag{Name: "duration", Destination: &o.Duration, Usage: "stop after this `DURATION` (default: until interrupted)"},
				&urfave.DurationFlag{Name: "interval", Value: time.Second, Destination: &o.Interval, Usage: "describe the group every `DURATION`"},
			},
			Spec: cli.Spec{Result: (*watchResult)(nil)},
		}
	})
}

// watchResult is what -o json/yaml print at the end of a watch.
type watchResult struct {
	Events  []views.WatchEvent `json:"events"`
	Summary views.WatchSummary `json:"summary"`
}

func runWatch(e *cli.Env, o *WatchOptions) error {
	g := e.Globals
	if g.From != "" || !g.Live() {
		return cli.UsageErrorf("watch follows a live cluster: give -b HOST:PORT or --worker-config FILE (not --from)")
	}
	if o.Interval <= 0 || o.Duration < 0 {
		return cli.UsageErrorf("--interval must be positive and --duration not negative")
	}
	liveOpts, err := e.LiveOptions()
	if err != nil {
		return err
	}
	ctx := e.Ctx
	if d := o.Duration; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	out := e.IO.Out
	opts := g.FormatOptions()
	streaming := opts.Output == format.OutputJSONL
	textual := opts.Output == format.OutputTable || opts.Output == format.OutputWide
	var collected []views.WatchEvent
	emitEvent := func(e views.WatchEvent) error {
		switch {
		case streaming:
			return format.Write(out, e, opts)
		case textual:
			_, err := fmt.Fprintf(out, "%s  %s\n", time.UnixMilli(e.TimeMs).UTC().Format("15:04:05.000"), format.EscapeLine(e.Message))
			return err
		}
		collected = append(collected, e)
		return nil
	}
	summary, watchErr := live.RunWatch(ctx, live.WatchOptions{Live: liveOpts, Interval: o.Interval}, emitEvent)
	durationEnded := ctx.Err() != nil && e.Ctx.Err() == nil
	if summary.Type == "" { // the watch never started: nothing to sum up
		if durationEnded {
			watchErr = fmt.Errorf("watching group %s: --duration %s ended before the cluster answered: %w", g.Group, o.Duration, watchErr)
		}
		return cli.InputError(watchErr)
	}
	if watchErr == nil && summary.Unanswered && durationEnded {
		// The end came while the cluster was silent: the summary is printed,
		// marked, but the watch did not see the group to the end.
		watchErr = fmt.Errorf("watching group %s: the cluster has not answered since %s UTC, %s before --duration ended; the summary's group state is the last one seen",
			g.Group, time.UnixMilli(summary.LastAnswerMs).UTC().Format("15:04:05"), format.Millis(summary.EndedAtMs-summary.LastAnswerMs))
	}
	var writeErr error
	switch {
	case streaming:
		writeErr = format.Write(out, summary, opts)
	case textual:
		writeErr = writeWatchSummary(out, summary)
	default:
		if collected == nil {
			collected = []views.WatchEvent{}
		}
		writeErr = e.Emit(watchResult{Events: collected, Summary: summary})
	}
	if watchErr != nil {
		return cli.InputError(watchErr)
	}
	return writeErr
}

func writeWatchSummary(w io.Writer, s views.WatchSummary) error {
	_, err := io.WriteString(w, "\n"+s.Text()+"\n")
	return err
}
