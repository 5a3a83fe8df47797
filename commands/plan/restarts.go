package plan

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/inspect/workers"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	urfave "github.com/urfave/cli/v2"
)

// restartAuto is the --restart-time (--returns-after) value that takes each
// worker's restart time from measurements instead of one given time.
const restartAuto = "auto"

// flagRestartTimes names the restart-times file `inspect workers
// --restarts -o json` writes.
const flagRestartTimes = "restart-times"

// restartTimesFlag binds --restart-times FILE.
// restartTimeFlag is --restart-time of the verbs that restart every worker.
func restartTimeFlag(dst *string) urfave.Flag {
	return &urfave.StringFlag{Name: flagRestartTime, Required: true, Destination: dst, Usage: "how long a worker is away, from stop to rejoin, `DURATION`, or auto: each worker's measured time (--restart-times, the status topic's history)"}
}

func restartTimesFlag(dst *string) urfave.Flag {
	return &urfave.StringFlag{Name: flagRestartTimes, Destination: dst, TakesFile: true,
		Usage: "with " + restartAuto + ": the restart-times `FILE` `inspect workers --restarts -o json` wrote; a worker it has no restart for takes the status topic's history, else the file's longest, else 1m"}
}

// restartInput is a restart time flag's value: a duration, or auto with
// the restart-times file (may be "").
type restartInput struct {
	ms   int64
	auto bool
	file string
}

// parseRestart reads --FLAG DURATION|auto.
func parseRestart(flag, value, file string) (restartInput, error) {
	if strings.EqualFold(strings.TrimSpace(value), restartAuto) {
		return restartInput{auto: true, ms: timeline.DefaultRestartMs, file: file}, nil
	}
	if file != "" {
		return restartInput{}, cli.UsageErrorf("--%s is read with --%s %s; give that, or drop the file", flagRestartTimes, flag, restartAuto)
	}
	ms, err := parseDurationMs("--"+flag, value)
	if err != nil {
		return restartInput{}, cli.UsageErrorf("%v (or %s: each worker's measured restart time)", err, restartAuto)
	}
	return restartInput{ms: ms}, nil
}

// measured gives each worker its measured restart time (timeline.AutoRestartTimes)
// from the restart-times file and the input's history, and says on stderr
// which workers nothing measured.
func (r restartInput) measured(e *cli.Env, state cluster.State, ds *inspect.Dataset) (*timeline.RestartTimes, error) {
	var m timeline.RestartMeasurements
	if r.file != "" {
		data, err := boundedfile.Read(r.file, workers.MaxRestartFile)
		if err != nil {
			return nil, cli.InputError(fmt.Errorf("--%s: %w", flagRestartTimes, err))
		}
		rt, err := workers.ParseRestartTimes(data)
		if err != nil {
			return nil, cli.InputError(fmt.Errorf("--%s %s: %w", flagRestartTimes, r.file, err))
		}
		m.File, m.FileMaxMs = rt.Workers, rt.MaxMs
	}
	if ds != nil {
		m.History = timeline.HistoryRestarts(views.Of(ds))
	}
	res := timeline.AutoRestartTimes(state, m)
	if line := res.FallbackLine(); line != "" {
		fmt.Fprintf(e.IO.Err, "connectscope: %s\n", line)
	}
	return res, nil
}
