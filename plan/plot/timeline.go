package plot

import (
	"fmt"
	"image/color"
	"io"
	"sort"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// markVerbs are what a timeline picture writes after the worker's label.
var markVerbs = map[string]string{
	timeline.MarkStop:   " stops",
	timeline.MarkCrash:  " crashes",
	timeline.MarkNotice: " noticed gone",
	timeline.MarkReturn: " back",
	timeline.MarkJoin:   " joins",
	timeline.MarkLeader: " leads",
}

// MarkText is the label a timeline picture writes for an event.
func MarkText(m timeline.Mark, label func(string) string) string {
	if m.Kind == timeline.MarkDelayEnds {
		return "delay ends"
	}
	if verb, ok := markVerbs[m.Kind]; ok {
		return label(m.Worker) + verb
	}
	return m.Kind
}

var markColors = map[string]color.Color{
	timeline.MarkStop:      color.RGBA{R: 200, A: 255},
	timeline.MarkCrash:     color.RGBA{R: 200, A: 255},
	timeline.MarkNotice:    color.RGBA{R: 140, G: 60, B: 140, A: 255},
	timeline.MarkReturn:    color.RGBA{G: 140, A: 255},
	timeline.MarkJoin:      color.RGBA{G: 140, A: 255},
	timeline.MarkLeader:    color.RGBA{R: 200, G: 120, A: 255},
	timeline.MarkDelayEnds: color.RGBA{B: 200, A: 255},
}

// Hosts lists the hosts a timeline's picture draws, in the natural order of
// their labels (worker-2 before worker-10), the first on top.
func Hosts(tl *timeline.Timeline, label func(string) string) []string {
	hosts := make([]string, 0, len(tl.Running))
	for h := range tl.Running {
		hosts = append(hosts, h)
	}
	sort.Slice(hosts, func(i, j int) bool {
		a, b := label(hosts[i]), label(hosts[j])
		if a != b {
			return format.NaturalLess(a, b)
		}
		return hosts[i] < hosts[j]
	})
	return hosts
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
func MarkLabels(tl *timeline.Timeline, label func(string) string) []MarkLabel {
	var out []MarkLabel
	var texts [][]string // each label's parts, joined once (10,000 at one moment is a scale-out)
	for _, m := range tl.Marks {
		t := MarkText(m, label)
		if n := len(out); n > 0 && out[n-1].TimeMs == m.TimeMs {
			texts[n-1] = append(texts[n-1], t)
			continue
		}
		out = append(out, MarkLabel{TimeMs: m.TimeMs, Kind: m.Kind})
		texts = append(texts, []string{t})
	}
	for i := range out {
		out[i].Text = strings.Join(texts[i], ", ")
	}
	return out
}

// Sizes of a timeline picture, in points. A lane's pitch shrinks with the
// number of workers but never below what its label needs, so the picture
// grows instead of its lanes collapsing.
const (
	timelineWidth = 10 * vg.Inch
	laneFont      = 9  // lane labels up to manyLanes workers
	manyLanes     = 60 // beyond it lanes are narrower, their labels smaller
	smallLaneFont = 7
	markFont      = 7
	markRow       = 10 // height of one row of event labels
	maxMarkRows   = 6
	panelOverhead = 60 // title, the time axis and its label, padding
	tilePad       = 6
	tileGapY      = 18
)

// LanePitch is the height of one worker's lane for a picture of n lanes.
func LanePitch(n int) vg.Length {
	switch {
	case n <= 0:
		return 30
	case n > manyLanes:
		return 9
	}
	return max(12, min(30, 300/vg.Length(n)))
}

// laneHeight is the share of a lane the busiest worker fills.
const laneHeight = 0.75

// panel is one timeline of a picture: its plot and its event labels.
type panel struct {
	plot  *gplot.Plot
	marks *markBand
	title string
}

// WriteTimeline draws each branch of a plan: tasks running per worker over
// time, cooperative above eager, events marked above the lanes.
func WriteTimeline(w io.Writer, format string, res *whatif.PlanResult) error {
	full := func(m string) string {
		if l, ok := res.Labels[m]; ok && l != "" {
			return text(l)
		}
		return text(m)
	}
	var names []string
	for _, b := range res.Branches {
		for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
			if tl == nil {
				continue
			}
			for h := range tl.Running {
				names = append(names, full(h))
			}
			for _, m := range tl.Marks {
				if m.Worker != "" {
					names = append(names, full(m.Worker))
				}
			}
		}
	}
	short, note := ShortNames(names)
	label := func(m string) string {
		if s, ok := short[full(m)]; ok {
			return s
		}
		return full(m)
	}
	var panels []*panel
	lanes := 0
	for _, b := range res.Branches {
		for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
			if tl == nil {
				continue
			}
			lanes = max(lanes, len(tl.Running))
			p, err := timelinePlot(text(fmt.Sprintf("%s — %s", b.Name, tl.Protocol)), tl, label, note)
			if err != nil {
				return err
			}
			panels = append(panels, p)
		}
	}
	if len(panels) == 0 {
		return fmt.Errorf("the plan has no timeline to draw")
	}
	pitch := LanePitch(lanes)
	// First the widest band every panel may need, to learn how wide the data
	// area is; then the rows the labels take, and the picture's real height.
	rows := 0
	if _, err := layout(panels, lanes, maxMarkRows, pitch, "svg"); err != nil {
		return err
	}
	for _, p := range panels {
		rows = max(rows, p.marks.rows)
	}
	c, err := layout(panels, lanes, rows, pitch, format)
	if err != nil {
		return err
	}
	_, err = c.WriteTo(w)
	return err
}

// layout sizes the picture for lanes and rows of event labels, places the
// labels of each panel and draws the panels on a new canvas.
func layout(panels []*panel, lanes, rows int, pitch vg.Length, format string) (vg.CanvasWriterTo, error) {
	height := panelHeight(panels[0].plot, lanes, rows, pitch)
	c, err := draw.NewFormattedCanvas(timelineWidth, vg.Length(len(panels))*height+2*tilePad+vg.Length(len(panels)-1)*tileGapY, format)
	if err != nil {
		return nil, err
	}
	grid := make([][]*gplot.Plot, len(panels))
	for i, p := range panels {
		p.marks.maxRows = rows
		p.plot.Y.Max = p.marks.top + float64(rows)*float64(markRow)/float64(pitch) + 0.2
		grid[i] = []*gplot.Plot{p.plot}
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadTop: tilePad, PadBottom: tilePad, PadLeft: tilePad, PadRight: tilePad, PadY: tileGapY}
	canvases := gplot.Align(grid, tiles, draw.New(c))
	for i, p := range panels {
		p.marks.place(p.plot, p.plot.DataCanvas(canvases[i][0]))
		p.plot.Title.Text = p.title
		if n := p.marks.unlabelled; n > 0 {
			p.plot.Title.Text += fmt.Sprintf("  (%d of %d event labels left out: the plan's events list them)", n, len(p.marks.labels))
		}
		p.plot.Draw(canvases[i][0])
	}
	return c, nil
}

// panelHeight is one panel's height: its lanes, its rows of event labels
// and the axes, and never less than the y axis' title needs.
func panelHeight(p *gplot.Plot, lanes, rows int, pitch vg.Length) vg.Length {
	h := vg.Length(lanes+1)*pitch + vg.Length(rows)*markRow + panelOverhead
	title := p.Y.Label.TextStyle.Rectangle(p.Y.Label.Text).Size().X
	return max(h, title+panelOverhead+tileGapY)
}

// timelinePlot draws one lane per worker (the first on top): its line rises
// with the tasks running on it, the busiest worker filling laneHeight.
func timelinePlot(title string, tl *timeline.Timeline, label func(string) string, note string) (*panel, error) {
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = "time"
	if note != "" {
		p.X.Label.Text = "time    (workers: " + note + ")"
	}
	end := DrawnEnd(tl)
	hosts := Hosts(tl, label)
	most := 1
	for _, h := range hosts {
		for _, pt := range tl.Running[h] {
			most = max(most, pt.Tasks)
		}
	}
	p.Y.Label.Text = fmt.Sprintf("tasks per worker (lane = %d)", most)
	if len(hosts) > manyLanes {
		p.Y.Tick.Label.Font.Size = smallLaneFont
	} else {
		p.Y.Tick.Label.Font.Size = laneFont
	}
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
		l.Width = vg.Points(1.2)
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
	marks := &markBand{labels: MarkLabels(tl, label), top: float64(len(hosts)) - 0.5}
	p.Add(marks)
	p.X.Min, p.X.Max = 0, end
	p.Y.Min = -0.5
	p.X.Tick.Marker = durationTicks{}
	return &panel{plot: p, marks: marks, title: title}, nil
}

// DrawnEnd is where a timeline's picture ends, in seconds: past the plan's
// last round by a tenth of its length (at least two seconds), so work that
// starts at the last round shows running.
func DrawnEnd(tl *timeline.Timeline) float64 {
	end := float64(tl.Summary.EndMs) / 1000
	return end + max(2, end/10)
}

// markBand draws the events of a timeline: a dashed line at each, and its
// label in the band above the lanes, in the first of maxRows rows where it
// overlaps no other label. Labels that fit in no row are left out (their
// lines stay) rather than drawn over each other.
type markBand struct {
	labels     []MarkLabel
	top        float64 // data y of the lanes' top edge
	maxRows    int
	placed     []placedMark
	rows       int // rows used
	unlabelled int
}

// placedMark is a label's place on the canvas; row -1 is not labelled.
type placedMark struct {
	x, left, right vg.Length
	row            int
}

func markStyle(kind string) draw.TextStyle {
	st := draw.TextStyle{Color: markColors[kind], Handler: gplot.DefaultTextHandler}
	st.Font = gplot.DefaultFont
	st.Font.Size = markFont
	return st
}

// place works out each label's row for the data canvas dc.
func (b *markBand) place(p *gplot.Plot, dc draw.Canvas) {
	trX, _ := p.Transforms(&dc)
	b.placed = b.placed[:0]
	b.rows, b.unlabelled = 0, 0
	var taken [][][2]vg.Length
	for _, m := range b.labels {
		x := trX(float64(m.TimeMs) / 1000)
		w := markStyle(m.Kind).Rectangle(m.Text).Size().X
		left, right := x+2, x+2+w
		if right > dc.Max.X { // near the right edge the label reads leftwards
			left, right = x-2-w, x-2
		}
		pm := placedMark{x: x, left: left, right: right, row: -1}
		for r := 0; r < b.maxRows && pm.row < 0; r++ {
			if r == len(taken) {
				taken = append(taken, nil)
			}
			free := true
			for _, iv := range taken[r] {
				if left < iv[1]+4 && iv[0] < right+4 {
					free = false
					break
				}
			}
			if free {
				taken[r] = append(taken[r], [2]vg.Length{left, right})
				pm.row = r
				b.rows = max(b.rows, r+1)
			}
		}
		if pm.row < 0 {
			b.unlabelled++
		}
		b.placed = append(b.placed, pm)
	}
}

// Plot draws the lines, then the labels on a white ground, so the lines of
// later events that rise through a lower row do not cross its text.
func (b *markBand) Plot(c draw.Canvas, p *gplot.Plot) {
	_, trY := p.Transforms(&c)
	bottom, top := trY(-0.5), trY(b.top)
	for i, m := range b.labels {
		pm := b.placed[i]
		line := draw.LineStyle{Color: markColors[m.Kind], Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
		upTo := top
		if pm.row >= 0 {
			upTo = top + vg.Length(pm.row+1)*markRow
		}
		c.StrokeLine2(line, pm.x, bottom, pm.x, upTo)
	}
	for i, m := range b.labels {
		pm := b.placed[i]
		if pm.row < 0 {
			continue
		}
		st := markStyle(m.Kind)
		st.XAlign, st.YAlign = draw.XLeft, draw.YBottom
		y := top + vg.Length(pm.row)*markRow + 2
		c.SetColor(color.White)
		c.Fill(vg.Rectangle{Min: vg.Point{X: pm.left - 1, Y: y - 1}, Max: vg.Point{X: pm.right + 1, Y: y + markFont}}.Path())
		c.FillText(st, vg.Point{X: pm.left, Y: y}, m.Text)
	}
}
