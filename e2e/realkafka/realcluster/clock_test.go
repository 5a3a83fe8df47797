//go:build e2e

package realcluster

import (
	"bufio"
	"os"
	"regexp"
	"sort"
	"time"
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
