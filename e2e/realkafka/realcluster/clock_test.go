package realcluster

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
	plancluster "github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// The plan's clock against real workers: the workers' logs say when each
// task stopped ("Stopping task") and started again ("Creating task"), which
// gives the task-seconds not running and when all work ran again; the plan
// made from a snapshot just before the event says what it expected.

var (
	taskStopLine  = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] INFO .*Stopping task (\S+?)\s*\(`)
	taskStartLine = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] INFO .*Creating task (\S+?)\s*\(`)
)

// measuredClock is what the logs show after an event at t0.
type measuredClock struct {
	taskMs     int64 // task-ms not running, summed over tasks
	allRunning int64 // ms from t0 to the last start (0 when nothing stopped)
	stopped    int   // tasks that stopped at least once
}

// measureClock reads every worker's log from t0 for task stops and starts.
// killed are the tasks of workers killed at t0 (they log no stop).
func (c *cluster) measureClock(t0 time.Time, killed []string) measuredClock {
	type ev struct {
		at    time.Time
		task  string
		start bool
	}
	var evs []ev
	for _, w := range c.workers {
		f, err := os.Open(w.LogPath())
		if err != nil {
			c.t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			m, start := taskStopLine.FindStringSubmatch(line), false
			if m == nil {
				m, start = taskStartLine.FindStringSubmatch(line), true
			}
			if m == nil {
				continue
			}
			at, err := time.ParseInLocation("2006-01-02 15:04:05,000", m[1], time.Local)
			if err != nil || at.Before(t0.Truncate(time.Millisecond)) {
				continue
			}
			evs = append(evs, ev{at, m[2], start})
		}
		f.Close()
	}
	for _, k := range killed {
		evs = append(evs, ev{t0, k, false})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at.Before(evs[j].at) })
	down := map[string]time.Time{}
	stopped := map[string]bool{}
	var out measuredClock
	for _, e := range evs {
		if !e.start {
			if _, ok := down[e.task]; !ok {
				down[e.task] = e.at
				stopped[e.task] = true
			}
			continue
		}
		if since, ok := down[e.task]; ok {
			out.taskMs += e.at.Sub(since).Milliseconds()
			delete(down, e.task)
		}
		if ms := e.at.Sub(t0).Milliseconds(); stopped[e.task] && ms > out.allRunning {
			out.allRunning = ms
		}
	}
	out.stopped = len(stopped)
	return out
}

// rejoiningLine is a worker's JoinGroup (AbstractCoordinator, INFO).
var rejoiningLine = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] INFO .*\(Re-\)joining group`)

// firstLogLine is the time of the first line of w's log matching re.
func firstLogLine(w *realkafka.Worker, re *regexp.Regexp) (time.Time, bool) {
	f, err := os.Open(w.LogPath())
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			at, err := time.ParseInLocation("2006-01-02 15:04:05,000", m[1], time.Local)
			return at, err == nil
		}
	}
	return time.Time{}, false
}

// planClock is the plan's own figures for the group's protocol.
type planClock struct {
	TaskMs     int64  `json:"task_ms_not_running"`
	AllRunning *int64 `json:"all_running_after_ms"`
	Stopped    int    `json:"tasks_stopped"`
	Rounds     int    `json:"rounds"`
}

func (c *cluster) planClockOf(args ...string) planClock {
	c.t.Helper()
	stdout, stderr, code := run(append(args, "-o", "json", "--jq", `.branches[-1] | (if .cooperative and (.cooperative.protocol != "eager") then .cooperative else .eager end).summary`)...)
	if code != 0 {
		c.t.Fatalf("connectscope %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	var p planClock
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		c.t.Fatalf("%v\n%s", err, stdout)
	}
	return p
}

// planWithHeartbeat runs a plan from a snapshot through the package with
// the cluster's heartbeat interval known (join windows, crash notice from
// the last heartbeat), for the same figures as planClockOf.
func (c *cluster) planWithHeartbeat(snap string, f func(plancluster.State, timeline.Options) (*whatif.PlanResult, error)) planClock {
	c.t.Helper()
	ds, err := source.LoadFile(snap, inspect.DefaultTopicNames())
	if err != nil {
		c.t.Fatal(err)
	}
	state, err := plancluster.StateFromDataset(views.Decode(ds, store.DecodeOptions{}))
	if err != nil {
		c.t.Fatal(err)
	}
	var delay int64
	fmt.Sscan(c.props["scheduled.rebalance.max.delay.ms"], &delay)
	res, err := f(state, timeline.Options{MaxDelayMs: delay, SessionTimeoutMs: sessionTimeoutMs, HeartbeatIntervalMs: heartbeatMs, RoundTimeMs: timeline.DefaultRoundTime(heartbeatMs)})
	if err != nil {
		c.t.Fatal(err)
	}
	b := res.Branches[len(res.Branches)-1]
	tl := b.Cooperative
	if res.Protocol == "eager" {
		tl = b.Eager
	}
	return planClock{TaskMs: tl.Summary.TaskMsNotRunning, AllRunning: tl.Summary.AllRunningAfterMs, Stopped: tl.Summary.TasksStopped, Rounds: tl.Summary.Rounds}
}

// clockRow is one event class's comparison.
type clockRow struct {
	class    string
	plan     planClock
	measured measuredClock
}

func (r clockRow) String() string {
	all := "-"
	if r.plan.AllRunning != nil {
		all = fmt.Sprintf("%.1f", float64(*r.plan.AllRunning)/1000)
	}
	errPct := "-"
	if r.measured.taskMs > 0 {
		errPct = fmt.Sprintf("%+.0f%%", 100*float64(r.plan.TaskMs-r.measured.taskMs)/float64(r.measured.taskMs))
	}
	return fmt.Sprintf("| %s | %d / %d | %.1f / %.1f (%s) | %s / %.1f |", r.class, r.plan.Stopped, r.measured.stopped,
		float64(r.plan.TaskMs)/1000, float64(r.measured.taskMs)/1000, errPct, all, float64(r.measured.allRunning)/1000)
}

// TestPlanClockAgainstWorkers runs one cluster through a join, a clean
// leave, a crash, and a crash with tasks raised while the work is held
// (the plan made from the mid-delay snapshot), and logs plan versus logs:
// tasks stopped, task-seconds not running, all running again. Final
// ownership is held to the plan; the timing figures are logged, never
// asserted (a loaded machine stretches every round).
func TestPlanClockAgainstWorkers(t *testing.T) {
	t.Parallel()
	v := realkafka.Newest4x
	const delay = 15000
	c := newCluster(t, v, v, 3, map[string]string{"scheduled.rebalance.max.delay.ms": fmt.Sprint(delay)})
	c.standardConnectors()
	c.settle(2*time.Minute, 3*time.Second, nil)
	var rows []clockRow
	defer func() {
		t.Logf("per event class, plan / measured: tasks stopped | task-s not running (error) | all running again after (s)\n%s", joinRows(rows))
	}()
	taskList := func(snap string, worker string) []string {
		initial, workerOf := c.initialOwnership(snap)
		var out []string
		for member, ps := range initial {
			if workerOf[member] != worker {
				continue
			}
			for _, p := range ps {
				if t, ok := strings.CutPrefix(p, "t:"); ok {
					out = append(out, t)
				}
			}
		}
		return out
	}

	// A worker joins.
	snap := c.snapshot()
	p := c.planClockOf(append([]string{"plan", "join", "--add", "1"}, c.planFlags(snap)...)...)
	t0 := time.Now()
	joiner := c.addWorkers(1, nil)[0]
	c.settle(2*time.Minute, 3*time.Second, nil)
	m := c.measureClock(t0, nil)
	// The plan's time 0 is the join, not the JVM's start: all running
	// again is counted from the joiner's first JoinGroup.
	if at, ok := firstLogLine(joiner, rejoiningLine); ok && m.allRunning > 0 {
		m.allRunning -= at.Sub(t0).Milliseconds()
	}
	rows = append(rows, clockRow{"join", p, m})
	rows = append(rows, clockRow{"join (heartbeat known)", c.planWithHeartbeat(snap, func(st plancluster.State, o timeline.Options) (*whatif.PlanResult, error) {
		return whatif.JoinPlan(st, o, whatif.NewWorkerNames(st, 1))
	}), m})

	// A worker stops cleanly; its work waits out the delay.
	snap = c.snapshot()
	_, w := c.leaderAndOther()
	p = c.planClockOf(append([]string{"plan", "leave", "--worker", w.URL(), "--stop", "clean"}, c.planFlags(snap)...)...)
	t0 = time.Now()
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	c.settle(2*time.Minute, 3*time.Second, nil)
	ml := c.measureClock(t0, nil)
	rows = append(rows, clockRow{"clean leave", p, ml})
	rows = append(rows, clockRow{"clean leave (heartbeat known)", c.planWithHeartbeat(snap, func(st plancluster.State, o timeline.Options) (*whatif.PlanResult, error) {
		return whatif.LeavePlan(st, o, w.URL(), whatif.StopClean, nil)
	}), ml})

	// A worker crashes and the tasks of a connector are raised while its
	// work is held: the plan starts from a snapshot taken mid-delay.
	snap = c.snapshot()
	_, w = c.leaderAndOther()
	killed := taskList(snap, w.ID())
	pc := c.planClockOf(append([]string{"plan", "leave", "--worker", w.URL(), "--stop", "crash"}, c.planFlags(snap)...)...)
	pch := c.planWithHeartbeat(snap, func(st plancluster.State, o timeline.Options) (*whatif.PlanResult, error) {
		return whatif.LeavePlan(st, o, w.URL(), whatif.StopCrash, nil)
	})
	t0 = time.Now()
	if err := w.Kill(); err != nil {
		t.Fatal(err)
	}
	c.eventually(time.Minute, "the delay round", func() error {
		m := c.members()
		if m.State != "Stable" || len(m.Members) != len(c.running()) {
			return fmt.Errorf("group %s with %d members", m.State, len(m.Members))
		}
		for _, mb := range m.Members {
			if mb.Assignment == nil || mb.Assignment.DelayMs == 0 {
				return fmt.Errorf("%s told no delay", mb.MemberID)
			}
		}
		return nil
	})
	mid := c.snapshot()
	initial, workerOf := c.initialOwnership(mid)
	t1 := time.Now()
	c.putConfig("sink-x", map[string]string{
		"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
		"tasks.max":       "6", "file": filepath.Join(c.dataDir, "sink-x.out"),
		"topics": c.group + "-t0," + c.group + "-t1",
	})
	args := append([]string{"plan", "connector", "--set", "sink-x=6"}, c.planFlags(mid)...)
	pj := c.runPlan(args...)
	pm := c.planClockOf(args...)
	c.predictAndCompare(pj, 0, initial, workerOf, piecesExact)
	mc := c.measureClock(t0, killed)
	rows = append(rows, clockRow{"crash (from the kill)", pc, mc})
	rows = append(rows, clockRow{"crash (heartbeat known)", pch, mc})
	// From the change: the held tasks and the two new ones are down then.
	rows = append(rows, clockRow{"tasks raised mid-delay (plan from the snapshot)", pm, c.measureClock(t1, append(killed, "sink-x-4", "sink-x-5"))})
}

func joinRows(rows []clockRow) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.String() + "\n")
	}
	return b.String()
}
