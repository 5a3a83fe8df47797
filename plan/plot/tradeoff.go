package plot

import (
	"fmt"
	"image/color"
	"io"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/whatif"
)

// Labels the trade-off picture writes beside its marked points.
const (
	LabelCurrent     = "current"
	LabelRecommended = "recommended"
	LabelFront       = "front"
)

// SeriesName names one way of rolling (order, pacing, stop) in the legend.
func SeriesName(s advise.Setting) string {
	pace := string(s.Pacing)
	if s.Pacing == whatif.PaceGap && s.GapMs != nil {
		pace = "gap " + whatif.Millis(*s.GapMs)
	}
	return fmt.Sprintf("%s, %s, %s", s.Order, pace, s.Stop)
}

// Series groups the candidates by way of rolling, in first-seen order; each
// holds candidate indexes by delay.
func Series(res *advise.AdviseResult) (names []string, members map[string][]int) {
	members = map[string][]int{}
	for i, c := range res.Candidates {
		n := SeriesName(c.Setting)
		if _, ok := members[n]; !ok {
			names = append(names, n)
		}
		members[n] = append(members[n], i)
	}
	return names, members
}

// WriteTradeoff draws the advisor's sweep: over the delay, the rolling
// restart's task-seconds not running (one line per way of rolling) above the
// crash outage, with the front, the current and the recommended setting marked.
func WriteTradeoff(w io.Writer, format string, res *advise.AdviseResult) error {
	if len(res.Candidates) == 0 {
		return fmt.Errorf("the advice has no setting to draw")
	}
	roll, err := rollPanel(res)
	if err != nil {
		return err
	}
	crash, err := crashPanel(res)
	if err != nil {
		return err
	}
	crash.Legend.Top, crash.Legend.Left = true, true
	roll.Y.Min, crash.Y.Min = 0, 0
	roll.X.Tick.Marker, crash.X.Tick.Marker = durationTicks{}, durationTicks{}
	return stacked(w, format, 10*vg.Inch, 9*vg.Inch, roll, crash)
}

// rollPanel draws each series' rolling-restart cost by delay, with the
// Pareto front, the current and the recommended setting marked.
func rollPanel(res *advise.AdviseResult) (*gplot.Plot, error) {
	roll := gplot.New()
	roll.Title.Text = "rolling restart: task-seconds not running, by scheduled.rebalance.max.delay.ms"
	roll.X.Label.Text = "scheduled.rebalance.max.delay.ms"
	roll.Y.Label.Text = "roll task-seconds not running"
	roll.Legend.Top = true
	roll.Legend.Left = true
	names, members := Series(res)
	for i, n := range names {
		var xys plotter.XYs
		for _, ci := range members[n] {
			c := res.Candidates[ci]
			if c.Roll.NotRunningAtEnd != 0 {
				continue // never settles: no finite cost to draw
			}
			xys = append(xys, plotter.XY{X: sec(c.DelayMs), Y: sec(c.Roll.TaskMsNotRunning)})
		}
		if len(xys) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", n, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		s.Color = plotutil.Color(i)
		s.Radius = vg.Points(2)
		roll.Add(l, s)
		roll.Legend.Add(n, l, s)
	}
	var fx, cx, rx plotter.XYs
	var ftexts []string
	for _, c := range res.Candidates {
		if c.Roll.NotRunningAtEnd != 0 {
			continue
		}
		pt := plotter.XY{X: sec(c.DelayMs), Y: sec(c.Roll.TaskMsNotRunning)}
		if c.OnFront {
			fx = append(fx, pt)
			ftexts = append(ftexts, LabelFront)
		}
		if c.IsCurrent {
			cx = append(cx, pt)
		}
		if c.Recommended {
			rx = append(rx, pt)
		}
	}
	if err := marked(roll, fx, draw.RingGlyph{}, vg.Points(7), color.RGBA{R: 220, G: 120, A: 255}, "Pareto front", ftexts); err != nil {
		return nil, err
	}
	if err := marked(roll, cx, draw.SquareGlyph{}, vg.Points(5), color.Black, "current setting", repeat(LabelCurrent, len(cx))); err != nil {
		return nil, err
	}
	if err := marked(roll, rx, draw.TriangleGlyph{}, vg.Points(6), color.RGBA{G: 150, A: 255}, "recommended setting", repeat(LabelRecommended, len(rx))); err != nil {
		return nil, err
	}
	return roll, nil
}

// crashPanel draws the longest outage of a crash by delay, with the
// --max-downtime limit and the current and recommended setting marked.
func crashPanel(res *advise.AdviseResult) (*gplot.Plot, error) {
	crash := gplot.New()
	crash.Title.Text = fmt.Sprintf("crash: longest outage when %s crashes and never returns", label(res, res.CrashWorker))
	crash.X.Label.Text = "scheduled.rebalance.max.delay.ms"
	crash.Y.Label.Text = "crash: longest task outage (s)"
	var xys plotter.XYs
	seen := map[int64]bool{}
	var ccur, crec plotter.XYs
	for _, c := range res.Candidates {
		if c.Crash.LongestTaskOutageMs == nil {
			continue
		}
		pt := plotter.XY{X: sec(c.DelayMs), Y: sec(*c.Crash.LongestTaskOutageMs)}
		if !seen[c.DelayMs] {
			seen[c.DelayMs] = true
			xys = append(xys, pt)
		}
		if c.IsCurrent {
			ccur = append(ccur, pt)
		}
		if c.Recommended {
			crec = append(crec, pt)
		}
	}
	if len(xys) > 0 {
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, s.Color = plotutil.Color(0), plotutil.Color(0)
		crash.Add(l, s)
	}
	if res.Constraints.MaxDowntimeMs != nil && len(xys) > 0 {
		y := sec(*res.Constraints.MaxDowntimeMs)
		limit, err := plotter.NewLine(plotter.XYs{{X: xys[0].X, Y: y}, {X: xys[len(xys)-1].X, Y: y}})
		if err != nil {
			return nil, err
		}
		limit.Color = color.RGBA{R: 200, A: 255}
		limit.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		crash.Add(limit)
		crash.Legend.Add("--max-downtime", limit)
	}
	if err := marked(crash, ccur, draw.SquareGlyph{}, vg.Points(5), color.Black, "current setting", repeat(LabelCurrent, len(ccur))); err != nil {
		return nil, err
	}
	if err := marked(crash, crec, draw.TriangleGlyph{}, vg.Points(6), color.RGBA{G: 150, A: 255}, "recommended setting", repeat(LabelRecommended, len(crec))); err != nil {
		return nil, err
	}
	return crash, nil
}

// marked draws points with one glyph, a legend entry and a label beside each.
func marked(p *gplot.Plot, xys plotter.XYs, shape draw.GlyphDrawer, r vg.Length, c color.Color, legend string, texts []string) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.Shape, s.Radius, s.Color = shape, r, c
	p.Add(s)
	p.Legend.Add(legend, s)
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return err
	}
	labels.Offset = vg.Point{X: r + vg.Points(2), Y: r}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Color = c
		labels.TextStyle[i].Font.Size = vg.Points(8)
	}
	p.Add(labels)
	return nil
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func sec(ms int64) float64 { return float64(ms) / 1000 }

func label(res *advise.AdviseResult, m string) string {
	if l, ok := res.Labels[m]; ok && l != "" {
		return text(l)
	}
	return text(m)
}
