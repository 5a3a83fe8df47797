//go:build e2e

package realcluster

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The parts of a real round, for calibrating the time model: with
// CONNECTSCOPE_CLOCK_ROUNDS=1 every class logs, per worker and from the
// event, when it learnt of the rebalance, stopped its work, sent its
// JoinGroup, joined, synced, got its assignment and started its work; and
// with CONNECTSCOPE_CLOCK_ROUND_TIMES (e.g. 500,800,1500) the class's plan
// is made again with each round time, to set the model's parameters from
// the same events.

// roundPartLines are the worker log lines that mark the parts of a round.
var roundPartLines = []struct {
	part  string
	re    *regexp.Regexp
	group bool // a line of the group protocol (the herder's, not a sink consumer's)
}{
	{"learnt", regexp.MustCompile(`group is rebalancing|Request joining group due to`), true},
	{"rebalance started", regexp.MustCompile(`Rebalance started`), false},
	{"stopped for rebalance", regexp.MustCompile(`Finished stopping tasks in preparation for rebalance`), false},
	{"LeaveGroup", regexp.MustCompile(`sending LeaveGroup request`), true},
	{"JoinGroup", regexp.MustCompile(`\(Re-\)joining group`), true},
	{"joined", regexp.MustCompile(`Successfully joined group with`), true},
	{"synced", regexp.MustCompile(`Successfully synced group`), true},
	{"assignment", regexp.MustCompile(`Joined group at generation`), false},
	{"starting", regexp.MustCompile(`Starting connectors and tasks using`), false},
	{"started", regexp.MustCompile(`Finished starting connectors and tasks`), false},
	{"stop task", regexp.MustCompile(`Stopping task `), false},
	{"create task", regexp.MustCompile(`Creating task `), false},
	{"stop connector", regexp.MustCompile(`Stopping connector `), false},
	{"create connector", regexp.MustCompile(`Creating connector `), false},
}

var logStamp = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\]`)

// roundParts is every worker's round-part lines from t0, as ms after t0,
// in time order.
func (c *cluster) roundParts(t0 time.Time) string {
	type part struct {
		ms           int64
		worker, text string
	}
	var parts []part
	for _, w := range c.workers {
		data, err := os.ReadFile(w.LogPath())
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			m := logStamp.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			at, err := time.ParseInLocation("2006-01-02 15:04:05,000", m[1], time.Local)
			if err != nil || at.Before(t0.Truncate(time.Millisecond)) {
				continue
			}
			// The group's lines are the herder's; a sink task's consumer
			// logs its own group's.
			herder := strings.Contains(line, "[Worker clientId=")
			for _, p := range roundPartLines {
				if p.group && !herder {
					continue
				}
				if loc := p.re.FindStringIndex(line); loc != nil {
					text := p.part
					if strings.HasSuffix(p.part, "task") || strings.HasSuffix(p.part, "connector") {
						f := strings.Fields(line[loc[1]:])
						if len(f) > 0 {
							text += " " + f[0]
						}
					}
					if p.part == "assignment" {
						text += " " + assignmentSummary(line)
					}
					parts = append(parts, part{at.Sub(t0).Milliseconds(), w.ID(), text})
					break
				}
			}
		}
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].ms < parts[j].ms })
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "\n  %7d %s %s", p.ms, p.worker, p.text)
	}
	return b.String()
}

var assignmentFields = regexp.MustCompile(`generation (\d+).*connectorIds=\[([^\]]*)\], taskIds=\[([^\]]*)\], revokedConnectorIds=\[([^\]]*)\], revokedTaskIds=\[([^\]]*)\].*rebalance delay: (\d+)`)

// assignmentSummary counts an assignment line's pieces.
func assignmentSummary(line string) string {
	m := assignmentFields.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	n := func(s string) int {
		if strings.TrimSpace(s) == "" {
			return 0
		}
		return len(strings.Split(s, ","))
	}
	return fmt.Sprintf("gen %s: +%dc +%dt -%dc -%dt delay %s", m[1], n(m[2]), n(m[3]), n(m[4]), n(m[5]), m[6])
}

// logRoundParts logs the parts of the class's rounds when asked, after
// the plan's rounds (start and end, ms after the same event).
func (c *cluster) logRoundParts(t0 time.Time, plan *planTimeline) {
	if os.Getenv("CONNECTSCOPE_CLOCK_ROUNDS") == "" {
		return
	}
	var b strings.Builder
	for _, r := range plan.Rounds {
		fmt.Fprintf(&b, "\n  %7d to %d: %s", r.TimeMs, r.EndMs, r.Trigger)
	}
	c.t.Logf("the plan's rounds (ms after the event):%s\nround parts (ms after the event):%s", b.String(), c.roundParts(t0))
}

// roundTimeVariants are CONNECTSCOPE_CLOCK_ROUND_TIMES in ms.
func roundTimeVariants() []int64 {
	var out []int64
	for _, s := range strings.Split(os.Getenv("CONNECTSCOPE_CLOCK_ROUND_TIMES"), ",") {
		if ms, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil && ms >= 0 {
			out = append(out, ms)
		}
	}
	return out
}

// variantNote is the class's plan made again with each asked round time:
// "round 800 ms: 9.5 task-s, all 4.8 s; ...".
func (c *cluster) variantNote(branch int) string {
	if c.replan == nil {
		return ""
	}
	var notes []string
	for _, ms := range roundTimeVariants() {
		o := c.matrixOptions()
		o.RoundTimeMs = ms
		p := c.replan(o)
		tl, err := p.timeline(branch)
		if err != nil {
			continue
		}
		all := "never"
		if tl.Summary.AllRunning != nil {
			all = fmt.Sprintf("%.1f s", float64(*tl.Summary.AllRunning)/1000)
		}
		notes = append(notes, fmt.Sprintf("round %d ms: %.1f task-s, all %s", ms, float64(tl.Summary.TaskMs)/1000, all))
	}
	return strings.Join(notes, "; ")
}

// matrixExtraSinkTasks is CONNECTSCOPE_CLOCK_SINK_TASKS: the tasks of one
// more sink connector (sink-z) in the matrix cluster, for round costs at
// another size (0: none).
func matrixExtraSinkTasks(c *cluster) int {
	v := os.Getenv("CONNECTSCOPE_CLOCK_SINK_TASKS")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 200 {
		c.t.Fatalf("CONNECTSCOPE_CLOCK_SINK_TASKS: want 0 to 200, got %q", v)
	}
	return n
}
