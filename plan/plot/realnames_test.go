package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// realState is the synthetic cluster with the names real workers carry,
// connect-worker-N.prod.example.com:8083.
func realState(workers, connectors, tasks int) cluster.State {
	return cluster.SyntheticState(cluster.SyntheticSpec{Workers: workers, Connectors: connectors, Tasks: tasks}).WithHostNames(RealLookingName)
}

// box is where one <text> of an SVG picture stands, in the picture's
// coordinates (y up, points), measured with the font the picture names.
type box struct {
	text           string
	x0, x1, y0, y1 float64
	size           float64
	rotated        bool
}

var fontSize = regexp.MustCompile(`font-size:([0-9.]+)px`)

// svgBoxes reads the text boxes and the height of an SVG written by gonum's
// SVG canvas: the whole picture is flipped (y up), each text flipped back,
// rotated text inside a rotate(90) group.
func svgBoxes(t *testing.T, b []byte) (boxes []box, height float64) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var rotated []bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not valid XML: %v", err)
		}
		switch se := tok.(type) {
		case xml.EndElement:
			if se.Name.Local == "g" {
				rotated = rotated[:len(rotated)-1]
			}
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range se.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch se.Name.Local {
			case "svg":
				height, _ = strconv.ParseFloat(strings.TrimSuffix(attr["height"], "pt"), 64)
			case "g":
				rotated = append(rotated, strings.Contains(attr["transform"], "rotate(90)"))
			case "text":
				var body string
				if err := dec.DecodeElement(&body, &se); err != nil {
					t.Fatal(err)
				}
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				m := fontSize.FindStringSubmatch(attr["style"])
				if m == nil {
					t.Fatalf("text %q without a font size", body)
				}
				size, _ := strconv.ParseFloat(m[1], 64)
				st := draw.TextStyle{Font: gplot.DefaultFont, Handler: gplot.DefaultTextHandler}
				st.Font.Size = vg.Length(size)
				w := float64(st.Rectangle(body).Size().X)
				bx := box{text: strings.TrimSpace(body), size: size, rotated: len(rotated) > 0 && rotated[len(rotated)-1]}
				if bx.rotated { // reads upwards from y = x
					bx.y0, bx.y1 = x, x+w
				} else {
					bx.x0, bx.x1 = x, x+w
					bx.y0, bx.y1 = -y-0.2*size, -y+0.75*size
				}
				boxes = append(boxes, bx)
			}
		}
	}
	return boxes, height
}

func overlap(a, b box) bool {
	const slack = 0.5
	return a.x0 < b.x1-slack && b.x0 < a.x1-slack && a.y0 < b.y1-slack && b.y0 < a.y1-slack
}

// Pictures of real-looking clusters, 3 to 300 workers named
// connect-worker-N.prod.example.com:8083, read back from the drawing: every
// lane labelled once per panel with a short name, lanes at least 9 points
// apart, no text over another, the y axis' title inside the picture, the
// event labels in a band that leaves the lanes most of the height.
func TestTimelineRealNames(t *testing.T) {
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	for _, n := range []int{3, 30, 300} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			st := realState(n, 2*n, 2)
			var res *whatif.PlanResult
			var err error
			if n <= 30 {
				res, err = whatif.RollingRestartPlan(st, opts, 90000, whatif.StopClean, nil)
			} else {
				res, err = whatif.LeavePlan(st, opts, st.Workers[3].ID, whatif.StopClean, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteTimeline(&buf, FormatSVG, res); err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("PLOT_TEST_OUT"); dir != "" {
				os.WriteFile(fmt.Sprintf("%s/real-%d.svg", dir, n), buf.Bytes(), 0o644)
			}
			boxes, height := svgBoxes(t, buf.Bytes())
			panels := 2
			lanes := map[string][]box{}
			for _, b := range boxes {
				if regexp.MustCompile(`^connect-worker-[0-9]+(\.prod\.example\.com:8083)?$`).MatchString(b.text) {
					lanes[b.text] = append(lanes[b.text], b)
				}
			}
			if len(lanes) != n {
				t.Fatalf("%d lanes labelled with a short name, want %d", len(lanes), n)
			}
			var ys []float64
			for name, bs := range lanes {
				if len(bs) != panels {
					t.Errorf("lane %s labelled %d times, want once per panel", name, len(bs))
				}
				for _, b := range bs {
					ys = append(ys, b.y0)
				}
			}
			sort.Float64s(ys)
			pitch := 1e9
			for i := 1; i < len(ys); i++ {
				if d := ys[i] - ys[i-1]; d > 0.01 && d < pitch {
					pitch = d
				}
			}
			if pitch < 8.5 { // 9 points, give or take the alignment of the panels
				t.Errorf("lanes %.1f points apart, want about 9 or more", pitch)
			}
			panel := height / float64(panels)
			var markTop, markBottom []float64
			for i, a := range boxes {
				if a.y0 < -1 || a.y1 > height+1 {
					t.Errorf("text %q at y %.1f..%.1f is outside the picture (0..%.1f)", a.text, a.y0, a.y1, height)
				}
				if strings.HasPrefix(a.text, "tasks per worker") && !a.rotated {
					t.Errorf("y axis title is not rotated")
				}
				for _, b := range boxes[i+1:] {
					if a.rotated == b.rotated && overlap(a, b) || a.rotated && b.rotated && a.y0 < b.y1 && b.y0 < a.y1 {
						t.Errorf("%q overlaps %q", a.text, b.text)
					}
				}
				if strings.HasSuffix(a.text, " stops") || strings.HasSuffix(a.text, " back") || a.text == "delay ends" {
					p := int(a.y0 / panel)
					for len(markTop) <= p {
						markTop, markBottom = append(markTop, 0), append(markBottom, height)
					}
					markTop[p] = max(markTop[p], a.y1)
					markBottom[p] = min(markBottom[p], a.y0)
				}
			}
			for p := range markTop {
				if band := markTop[p] - markBottom[p]; band > 0.35*panel {
					t.Errorf("panel %d: event labels take %.0f of its %.0f points", p, band, panel)
				}
			}
		})
	}
}

// The join picture runs past the last round, so the joiners' lanes show the
// work they get at its end.
func TestJoinPictureShowsJoinersRunning(t *testing.T) {
	st := realState(3, 6, 2)
	opts := timeline.Options{MaxDelayMs: 300000, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
	res, err := whatif.JoinPlan(st, opts, []string{"connect-worker-4.prod.example.com:8083"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range []*timeline.Timeline{res.Branches[0].Cooperative, res.Branches[0].Eager} {
		var joiner string
		for h := range tl.Running {
			if strings.Contains(res.Labels[h]+h, "worker-4") {
				joiner = h
			}
		}
		pts := tl.Running[joiner]
		if joiner == "" || len(pts) == 0 {
			t.Fatalf("%s: no lane for the joiner in %v", tl.Protocol, tl.Running)
		}
		last := pts[len(pts)-1]
		end := DrawnEnd(tl)
		if last.Tasks == 0 {
			t.Fatalf("%s: the joiner ends with no task: %+v", tl.Protocol, pts)
		}
		if shown := end - float64(last.TimeMs)/1000; shown < 0.05*end {
			t.Errorf("%s: the joiner's work starts at %dms and the picture ends at %.1fs: it shows running for %.1fs only", tl.Protocol, last.TimeMs, end, shown)
		}
	}
}

func TestShortNames(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
		note string
	}{
		{[]string{"connect-worker-1.prod.example.com:8083", "connect-worker-2.prod.example.com:8083", "connect-worker-2.prod.example.com:8083.2"},
			[]string{"connect-worker-1", "connect-worker-2", "connect-worker-2.2"}, "*.prod.example.com:8083"},
		{[]string{"10.0.1.11:8083", "10.0.1.12:8083", "10.0.1.12:8083.2"}, []string{"10.0.1.11:8083", "10.0.1.12:8083", "10.0.1.12:8083.2"}, ""},
		{[]string{"w1", "w2", "w2.2"}, []string{"w1", "w2", "w2.2"}, ""},
		{[]string{"a.x.com:1", "a.y.com:1"}, []string{"a.x.com", "a.y.com"}, "*:1"},
		{[]string{"kafka-connect-worker-0123456789abcdef.eu-west-1.compute.internal:8083", "kafka-connect-worker-0123456789abcdf0.eu-west-1.compute.internal:8083"},
			[]string{"kafka-conne…6789abcdef", "kafka-conne…6789abcdf0"}, "*.eu-west-1.compute.internal:8083"},
	} {
		got, note := ShortNames(tc.in)
		for i, n := range tc.in {
			if got[n] != tc.want[i] {
				t.Errorf("ShortNames(%v)[%s] = %q, want %q", tc.in, n, got[n], tc.want[i])
			}
		}
		if note != tc.note {
			t.Errorf("ShortNames(%v) note %q, want %q", tc.in, note, tc.note)
		}
	}
}
