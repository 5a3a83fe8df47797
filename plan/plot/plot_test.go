package plot

import (
	"bytes"
	"context"
	"image/png"
	"sort"
	"testing"

	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// svgText is one <text> element of an SVG: its content and where it starts.
type svgText struct {
	X, Y float64
	Text string
}

// parseSVG checks that b is an SVG picture and returns its text elements in
// document order.
func parseSVG(t *testing.T, b []byte) []svgText {
	t.Helper()
	boxes, height := svgBoxes(t, b)
	if height == 0 {
		t.Fatalf("no <svg> root with a height")
	}
	texts := make([]svgText, len(boxes))
	for i, bx := range boxes {
		texts[i] = svgText{X: bx.x0, Y: bx.y0, Text: bx.text}
	}
	return texts
}

func classic() (cluster.State, timeline.Options) {
	return cluster.SyntheticState(cluster.SyntheticSpec{Workers: 6, Connectors: 30, Tasks: 3}),
		timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
}

func count(texts []svgText, s string) int {
	n := 0
	for _, t := range texts {
		if t.Text == s {
			n++
		}
	}
	return n
}

// The timeline of the classic rolling restart names every worker's lane in
// both panels and labels every moment with events once per panel, left to
// right in time order.
func TestTimelineSVGMatchesPlan(t *testing.T) {
	st, opts := classic()
	res, err := whatif.RollingRestartPlan(st, opts, 90000, whatif.StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTimeline(&buf, FormatSVG, res); err != nil {
		t.Fatal(err)
	}
	texts := parseSVG(t, buf.Bytes())
	label := func(m string) string { return res.Labels[m] }
	b := res.Branches[0]
	for _, h := range Hosts(b.Cooperative, label) {
		if got := count(texts, label(h)); got != 2 {
			t.Errorf("lane label %s appears %d times, want 2 (one per panel)", label(h), got)
		}
	}
	if n := len(Hosts(b.Cooperative, label)); n != 6 {
		t.Errorf("%d lanes, want 6 workers", n)
	}
	for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
		labels := MarkLabels(tl, label)
		if len(labels) == 0 {
			t.Fatalf("%s: no event labels", tl.Protocol)
		}
		for _, m := range labels {
			if got, want := count(texts, m.Text), countLabels(b, m.Text, label); got != want {
				t.Errorf("%s: label %q appears %d times, want %d", tl.Protocol, m.Text, got, want)
			}
		}
	}
	// The cooperative panel has the delay's end (5 min after w2 stops),
	// eager has none.
	coop := MarkLabels(b.Cooperative, label)
	found := false
	for _, m := range coop {
		if m.Text == "delay ends" {
			found = true
			if m.TimeMs != 300000 {
				t.Errorf("delay ends at %d ms, want 300000", m.TimeMs)
			}
		}
	}
	if !found || count(texts, "delay ends") != 1 {
		t.Errorf("delay ends: in the marks %v, in the SVG %d times; want once, in the cooperative panel", found, count(texts, "delay ends"))
	}
	// Labels stand in time order from left to right (rotated text keeps its
	// anchor's x in the first coordinate after the transform, so compare the
	// labels' order of appearance with the marks' order instead).
	var seen []string
	for _, tx := range texts {
		for _, m := range coop {
			if tx.Text == m.Text && !contains(seen, m.Text) {
				seen = append(seen, m.Text)
			}
		}
	}
	if len(seen) != len(coop) {
		t.Errorf("%d of %d cooperative labels found", len(seen), len(coop))
	}
}

func countLabels(b whatif.Branch, text string, label func(string) string) int {
	n := 0
	for _, tl := range []*timeline.Timeline{b.Cooperative, b.Eager} {
		for _, m := range MarkLabels(tl, label) {
			if m.Text == text {
				n++
			}
		}
	}
	return n
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// The tasks running per host at the end of each timeline are what the
// summary's final counts say; w1, untouched until it restarts last, runs
// its 15 tasks at 0 under the cooperative protocol.
func TestRunningSeriesMatchesSummary(t *testing.T) {
	st, opts := classic()
	res, err := whatif.RollingRestartPlan(st, opts, 90000, whatif.StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w1 := res.Branches[0].Cooperative.Running["w1"]; w1[0].Tasks != 15 {
		t.Errorf("cooperative w1 starts with %+v, want 15 tasks", w1[0])
	}
	for _, tl := range []*timeline.Timeline{res.Branches[0].Cooperative, res.Branches[0].Eager} {
		final := map[string]int{}
		for _, w := range tl.Summary.Final {
			final[w.Host] += w.Tasks
		}
		for h, pts := range tl.Running {
			// Events at t=0 (w2 stops; eager's first round) replace the
			// initial point, so only its time is fixed.
			if pts[0].TimeMs != 0 {
				t.Errorf("%s %s starts with %+v, want a point at 0", tl.Protocol, h, pts[0])
			}
			for _, p := range pts {
				if p.Tasks < 0 || p.Tasks > 90 {
					t.Errorf("%s %s: %d tasks running at %d ms", tl.Protocol, h, p.Tasks, p.TimeMs)
				}
			}
			if last := pts[len(pts)-1]; last.Tasks != final[h] {
				t.Errorf("%s %s ends with %d tasks running, summary says %d", tl.Protocol, h, last.Tasks, final[h])
			}
		}
	}
}

func TestTimelinePNGDecodes(t *testing.T) {
	st, opts := classic()
	res, err := whatif.LeavePlan(st, opts, "w3", whatif.StopCrash, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTimeline(&buf, FormatPNG, res); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
		t.Errorf("PNG is %v, too small to read", b)
	}
}

// The trade-off picture names every way of rolling in its legend, labels
// the current and recommended settings once per panel and every front point
// once, and the current (5m) stands right of the recommended (0s).
func TestTradeoffSVGMatchesAdvice(t *testing.T) {
	st, opts := classic()
	res, err := advise.Advise(context.Background(), st, opts, advise.AdviseOptions{RestartMs: 90000, MaxMoves: -1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTradeoff(&buf, FormatSVG, res); err != nil {
		t.Fatal(err)
	}
	texts := parseSVG(t, buf.Bytes())
	names, _ := Series(res)
	if len(names) != 8 {
		t.Errorf("%d ways of rolling, want 8 (2 orders x 2 pacings x 2 stops)", len(names))
	}
	for _, n := range names {
		if count(texts, n) != 1 {
			t.Errorf("legend entry %q appears %d times, want 1", n, count(texts, n))
		}
	}
	front := 0
	for _, c := range res.Candidates {
		if c.OnFront {
			front++
		}
	}
	if front == 0 || count(texts, LabelFront) != front {
		t.Errorf("front labels %d, front points %d", count(texts, LabelFront), front)
	}
	if count(texts, LabelCurrent) != 2 || count(texts, LabelRecommended) != 2 {
		t.Errorf("current labelled %d times, recommended %d; want 2 each", count(texts, LabelCurrent), count(texts, LabelRecommended))
	}
	var cur, rec []float64
	for _, tx := range texts {
		switch tx.Text {
		case LabelCurrent:
			cur = append(cur, tx.X)
		case LabelRecommended:
			rec = append(rec, tx.X)
		}
	}
	sort.Float64s(cur)
	sort.Float64s(rec)
	if res.Recommended == nil || res.Recommended.DelayMs >= res.Current.DelayMs {
		t.Fatalf("classic case: want a recommended delay below the current 5m, got %+v", res.Recommended)
	}
	for i := range cur {
		if i < len(rec) && cur[i] <= rec[i] {
			t.Errorf("current label at x=%.1f is not right of the recommended one at x=%.1f", cur[i], rec[i])
		}
	}
	var png bytes.Buffer
	if err := WriteTradeoff(&png, FormatPNG, res); err != nil {
		t.Fatal(err)
	}
	if _, err := pngDecode(png.Bytes()); err != nil {
		t.Fatalf("trade-off PNG: %v", err)
	}
}

func pngDecode(b []byte) (any, error) { return png.Decode(bytes.NewReader(b)) }

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.svg": FormatSVG, "B.PNG": FormatPNG, "x.pdf": "", "noext": ""} {
		got, err := FormatOf(path)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}
