// Package plot draws the pictures of the plans (--plot): a timeline of the
// tasks running on each worker, cooperative above eager, with the events
// marked; and the advisor's trade-off between a rolling restart's cost and a
// crash's outage over the scheduled delay. It draws with gonum.org/v1/plot
// and writes SVG or PNG.
package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
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

// MarkText is the label a timeline picture writes for an event.
func MarkText(m plan.Mark, label func(string) string) string {
	who := label(m.Worker)
	switch m.Kind {
	case plan.MarkStop:
		return who + " stops"
	case plan.MarkCrash:
		return who + " crashes"
	case plan.MarkNotice:
		return who + " noticed gone"
	case plan.MarkReturn:
		return who + " back"
	case plan.MarkJoin:
		return who + " joins"
	case plan.MarkLeader:
		return who + " leads"
	case plan.MarkDelayEnds:
		return "delay ends"
	}
	return m.Kind
}

var markColors = map[string]color.Color{
	plan.MarkStop:      color.RGBA{R: 200, A: 255},
	plan.MarkCrash:     color.RGBA{R: 200, A: 255},
	plan.MarkNotice:    color.RGBA{R: 140, G: 60, B: 140, A: 255},
	plan.MarkReturn:    color.RGBA{G: 140, A: 255},
	plan.MarkJoin:      color.RGBA{G: 140, A: 255},
	plan.MarkLeader:    color.RGBA{R: 200, G: 120, A: 255},
	plan.MarkDelayEnds: color.RGBA{B: 200, A: 255},
}

// Hosts lists the hosts a timeline's picture draws, sorted by label.
func Hosts(tl *plan.Timeline, label func(string) string) []string {
	hosts := make([]string, 0, len(tl.Running))
	for h := range tl.Running {
		hosts = append(hosts, h)
	}
	sort.Slice(hosts, func(i, j int) bool { return label(hosts[i]) < label(hosts[j]) })
	return hosts
}

// WriteTimeline draws each branch of a plan: tasks running per worker over
// time, cooperative above eager, events marked.
func WriteTimeline(w io.Writer, format string, res *plan.PlanResult) error {
	label := func(m string) string {
		if l, ok := res.Labels[m]; ok && l != "" {
			return l
		}
		return m
	}
	var plots []*gplot.Plot
	lanes := 0
	for _, b := range res.Branches {
		for _, tl := range []*plan.Timeline{b.Cooperative, b.Eager} {
			if tl == nil {
				continue
			}
			lanes = max(lanes, len(tl.Running))
			p, err := timelinePlot(fmt.Sprintf("%s — %s", b.Name, tl.Protocol), tl, label)
			if err != nil {
				return err
			}
			plots = append(plots, p)
		}
	}
	if len(plots) == 0 {
		return fmt.Errorf("the plan has no timeline to draw")
	}
	// A lane needs about 0.15 in to stay readable; small clusters get 3.6 in a panel.
	panel := max(3.6*vg.Inch, vg.Length(lanes)*0.15*vg.Inch+1.5*vg.Inch)
	return stacked(w, format, 10*vg.Inch, vg.Length(len(plots))*panel, plots...)
}

// MarkLabel is one event label of a timeline picture: the events at one
// moment, joined.
type MarkLabel struct {
	TimeMs int64
	Kind   string // the kind of the first event, which colours the label
	Text   string
}

// MarkLabels merges the marks of a timeline that fall at the same moment
// (a worker back and the next one stopping), so their labels do not overlap.
func MarkLabels(tl *plan.Timeline, label func(string) string) []MarkLabel {
	var out []MarkLabel
	for _, m := range tl.Marks {
		t := MarkText(m, label)
		if n := len(out); n > 0 && out[n-1].TimeMs == m.TimeMs {
			out[n-1].Text += ", " + t
			continue
		}
		out = append(out, MarkLabel{TimeMs: m.TimeMs, Kind: m.Kind, Text: t})
	}
	return out
}

// laneHeight is the share of a lane the busiest worker fills.
const laneHeight = 0.75

// timelinePlot draws one lane per worker (the first on top): its line rises
// with the tasks running on it, the busiest worker filling laneHeight.
func timelinePlot(title string, tl *plan.Timeline, label func(string) string) (*gplot.Plot, error) {
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = "time"
	end := float64(tl.Summary.EndMs) / 1000
	hosts := Hosts(tl, label)
	most := 1
	for _, h := range hosts {
		for _, pt := range tl.Running[h] {
			most = max(most, pt.Tasks)
		}
	}
	p.Y.Label.Text = fmt.Sprintf("tasks running per worker (lane height %d)", most)
	names := make([]string, len(hosts))
	for i, h := range hosts {
		lane := float64(len(hosts) - 1 - i)
		names[len(hosts)-1-i] = label(h)
		pts := tl.Running[h]
		xys := make(plotter.XYs, 0, len(pts)+1)
		for _, pt := range pts {
			xys = append(xys, plotter.XY{X: float64(pt.TimeMs) / 1000, Y: lane - laneHeight/2 + laneHeight*float64(pt.Tasks)/float64(most)})
		}
		if last := xys[len(xys)-1]; last.X < end {
			xys = append(xys, plotter.XY{X: end, Y: last.Y})
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("line of %s: %w", label(h), err)
		}
		l.StepStyle = plotter.PostStep
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		// The area under the step line, so each lane reads as a band.
		floor := lane - laneHeight/2
		area := plotter.XYs{{X: xys[0].X, Y: floor}}
		for j, pt := range xys {
			if j > 0 {
				area = append(area, plotter.XY{X: pt.X, Y: xys[j-1].Y})
			}
			area = append(area, pt)
		}
		area = append(area, plotter.XY{X: xys[len(xys)-1].X, Y: floor})
		band, err := plotter.NewPolygon(area)
		if err != nil {
			return nil, err
		}
		r, g, bl, _ := plotutil.Color(i).RGBA()
		band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 60}
		band.LineStyle.Width = 0
		p.Add(band, l)
	}
	p.NominalY(names...)
	top := float64(len(hosts)) - 0.5
	ceiling := top + 0.9 // room above the lanes for the event labels
	labels := MarkLabels(tl, label)
	if len(labels) > 0 {
		var xys plotter.XYs
		var texts []string
		for _, m := range labels {
			x := float64(m.TimeMs) / 1000
			v, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: ceiling}})
			if err != nil {
				return nil, err
			}
			v.Color = markColors[m.Kind]
			v.Width = vg.Points(0.6)
			v.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			p.Add(v)
			xys = append(xys, plotter.XY{X: x, Y: top + 0.05})
			texts = append(texts, m.Text)
		}
		lp, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
		if err != nil {
			return nil, err
		}
		for i := range lp.TextStyle {
			lp.TextStyle[i].Rotation = 1.5707963267948966 // read bottom to top beside the line
			lp.TextStyle[i].Font.Size = vg.Points(7)
			lp.TextStyle[i].Color = markColors[labels[i].Kind]
			lp.TextStyle[i].YAlign = draw.YTop
		}
		p.Add(lp)
	}
	p.X.Min, p.X.Max = 0, max(end, 1)
	p.Y.Min, p.Y.Max = -0.5, ceiling
	p.X.Tick.Marker = durationTicks{}
	return p, nil
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
