package commands

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/connectscope/connectscope/plan"
	"github.com/connectscope/connectscope/plan/plot"
)

const flagPlot = "plot"

func plotFlag() cli.Flag {
	return &cli.StringFlag{Name: flagPlot, Usage: "also draw the plan into `FILE` (.svg or .png): tasks running per worker over time, cooperative above eager, events marked"}
}

// plotTarget is the --plot file, checked before any work is done.
func plotTarget(c *cli.Context) (string, error) {
	path := c.String(flagPlot)
	if path == "" {
		return "", nil
	}
	if _, err := plot.FormatOf(path); err != nil {
		return "", UsageErrorf("--%s %w", flagPlot, err)
	}
	return path, nil
}

// emitPlan prints a what-if plan and, with --plot, draws its timeline.
func emitPlan(c *cli.Context, g Globals, res *plan.PlanResult) error {
	path, err := plotTarget(c)
	if err != nil {
		return err
	}
	if path != "" {
		if err := plot.Save(path, func(w io.Writer, format string) error { return plot.WriteTimeline(w, format, res) }); err != nil {
			return plotFailed(err)
		}
	}
	return emit(c, g, res)
}

func writeAdvisePlot(path string, res *plan.AdviseResult) error {
	if err := plot.Save(path, func(w io.Writer, format string) error { return plot.WriteTradeoff(w, format, res) }); err != nil {
		return plotFailed(err)
	}
	return nil
}

// plotFailed is a picture that could not be written, named by its flag.
func plotFailed(err error) error { return InputError(fmt.Errorf("--%s: %w", flagPlot, err)) }
