package plan

import (
	"fmt"
	"io"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/plot"
	"github.com/connectscope/connectscope/plan/whatif"
)

// plotUsage is what --plot draws for a what-if plan.
const plotUsage = "also draw the plan into `FILE` (.svg or .png): tasks running per worker over time, cooperative above eager, events marked"

// plotTarget is the --plot file, checked before any work is done.
func plotTarget(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	if _, err := plot.FormatOf(path); err != nil {
		return "", cli.UsageErrorf("--%s %w", flagPlot, err)
	}
	return path, nil
}

// emitPlan prints a what-if plan and, with --plot, draws its timeline.
// out is what is printed: res itself or its compact form.
func emitPlan(e *cli.Env, path string, res *whatif.PlanResult, out any) error {
	if path != "" {
		if err := plot.Save(path, func(w io.Writer, format string) error { return plot.WriteTimeline(w, format, res) }); err != nil {
			return plotFailed(err)
		}
	}
	return e.Emit(out)
}

func writeAdvisePlot(path string, res *advise.AdviseResult) error {
	if err := plot.Save(path, func(w io.Writer, format string) error { return plot.WriteTradeoff(w, format, res) }); err != nil {
		return plotFailed(err)
	}
	return nil
}

// plotFailed is a picture that could not be written, named by its flag.
func plotFailed(err error) error { return cli.InputError(fmt.Errorf("--%s: %w", flagPlot, err)) }
