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
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	cliformat "github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/source/atomicfile"
	"github.com/connectscope/connectscope/plan/whatif"
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

// Save writes a picture to path in the format its extension names. The
// picture is drawn into a temporary file beside path and renamed over it
// once whole, as snapshot files are written: a reader (or a second
// connectscope plotting to the same path) sees the old picture or the new
// one, never half of one; a failed drawing leaves the old picture; and a
// symbolic link at path is replaced by the picture, not followed onto the
// file it points to.
func Save(path string, write func(w io.Writer, format string) error) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	// A picture is for sharing, as os.Create would have made it.
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return write(w, format) })
}

// text is a name from the cluster as a picture writes it: controls,
// bidi overrides and bytes that are not UTF-8 in their visible escaped
// form (as tables show them), and the two characters XML 1.0 forbids that
// remain (U+FFFE, U+FFFF) as \ufffe, so an SVG is always well-formed XML.
func text(s string) string {
	s = cliformat.EscapeTerminal(s)
	if strings.ContainsAny(s, "\ufffe\uffff") {
		s = strings.NewReplacer("\ufffe", `\ufffe`, "\uffff", `\uffff`).Replace(s)
	}
	return s
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
		out = append(out, gplot.Tick{Value: v, Label: whatif.Millis(int64(math.Round(v * 1000)))})
	}
	return out
}
