// Package plot draws the pictures of the plans (--plot): a timeline of the
// tasks running on each worker, cooperative above eager, with the events
// marked; and the advisor's trade-off between a rolling restart's cost and a
// crash's outage over the scheduled delay. It draws with gonum.org/v1/plot
// and writes SVG or PNG.
package plot

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/connectscope/connectscope/plan"
)

// Formats the pictures come in, by file extension.
const (
	FormatSVG = "svg"
	FormatPNG = "png"
)

// FormatOf is the picture format a file name asks for.
func FormatOf(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg":
		return FormatSVG, nil
	case ".png":
		return FormatPNG, nil
	default:
		return "", fmt.Errorf("%s: want a file name ending in .svg or .png", path)
	}
}

// Save writes a picture to path in the format its extension names.
func Save(path string, write func(w io.Writer, format string) error) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err // names the path
	}
	if err := write(f, format); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// stacked draws plots one above the other, aligned, and writes them.
func stacked(w io.Writer, format string, width, height vg.Length, plots ...*gplot.Plot) error {
	c, err := draw.NewFormattedCanvas(width, height, format)
	if err != nil {
		return err
	}
	rows := make([][]*gplot.Plot, len(plots))
	for i, p := range plots {
		rows[i] = []*gplot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(6), PadY: vg.Points(18)}
	canvases := gplot.Align(rows, tiles, draw.New(c))
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	_, err = c.WriteTo(w)
	return err
}

// durationTicks labels a time axis in seconds with plan durations (1m30s).
type durationTicks struct{}

func (durationTicks) Ticks(lo, hi float64) []gplot.Tick {
	span := hi - lo
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400} {
		step = s
		if span/s <= 10 {
			break
		}
	}
	var out []gplot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		out = append(out, gplot.Tick{Value: v, Label: plan.Millis(int64(math.Round(v * 1000)))})
	}
	return out
}
