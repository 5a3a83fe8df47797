//go:build e2e

package realcluster

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// joinedLine is the herder's INFO line after every rebalance; its
// assignment lists are the worker's whole holding after the round, in
// the worker's own order.
var joinedLine = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] INFO .*Joined group at generation (\d+) with protocol version (\d+) and got assignment: Assignment\{error=(\d+), leader='([^']*)'.*connectorIds=\[([^\]]*)\], taskIds=\[([^\]]*)\], revokedConnectorIds=\[([^\]]*)\], revokedTaskIds=\[([^\]]*)\], delay=(\d+)\}`)

// loggedRound is one worker's line for one completed rebalance.
type loggedRound struct {
	gen  int
	text string
}

// loggedRounds are the rebalances the cluster's workers (running or
// stopped) logged since t0, by generation: what the real group went
// through, to set beside the plan's rounds.
func (c *cluster) loggedRounds(t0 time.Time) []loggedRound {
	var rows []loggedRound
	for _, w := range c.workers {
		f, err := os.Open(w.LogPath())
		if err != nil {
			rows = append(rows, loggedRound{-1, fmt.Sprintf("%s: %v", w.ID(), err)})
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			m := joinedLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			at, err := time.ParseInLocation("2006-01-02 15:04:05,000", m[1], time.Local)
			if err != nil || at.Before(t0.Truncate(time.Millisecond)) {
				continue
			}
			var gen int
			fmt.Sscan(m[2], &gen)
			leader := ""
			if strings.Contains(m[5], w.ID()) {
				leader = " (leader)"
			}
			rows = append(rows, loggedRound{gen, fmt.Sprintf("gen %s %s %s%s: error=%s holds c=[%s] t=[%s] revoked c=[%s] t=[%s] delay=%s",
				m[2], m[1][11:], w.ID(), leader, m[4], m[6], m[7], m[8], m[9], m[10])})
		}
		f.Close()
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].gen < rows[j].gen })
	return rows
}

// roundsSince prints loggedRounds, one line per worker and generation.
func (c *cluster) roundsSince(t0 time.Time) string {
	var b strings.Builder
	for _, r := range c.loggedRounds(t0) {
		b.WriteString("\n  " + r.text)
	}
	return b.String()
}

// generationsSince are the distinct generations of loggedRounds, ascending.
func (c *cluster) generationsSince(t0 time.Time) []int {
	var gens []int
	for _, r := range c.loggedRounds(t0) {
		if r.gen >= 0 && (len(gens) == 0 || gens[len(gens)-1] != r.gen) {
			gens = append(gens, r.gen)
		}
	}
	return gens
}

// TestJoinedLineParses holds joinedLine to a line a real 4.4.0 worker
// logged: if the pattern stopped matching, generationsSince would count no
// rebalances and the join premise check would never fire.
func TestJoinedLineParses(t *testing.T) {
	line := `[2026-12-01 23:14:27,912] INFO [Worker clientId=connect-127.0.0.1:35577, groupId=rc-6636-1] Joined group at generation 4 with protocol version 2 and got assignment: Assignment{error=0, leader='connect-127.0.0.1:40133-021b7f74-7a20-4efd-ab98-a1500aca1cbe', leaderUrl='http://127.0.0.1:40133/', offset=4, connectorIds=[src-a], taskIds=[src-a-0, sink-x-1], revokedConnectorIds=[], revokedTaskIds=[sink-y-0], delay=0} with rebalance delay: 0 (org.apache.kafka.connect.runtime.distributed.DistributedHerder)`
	m := joinedLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatal("joinedLine does not match a real worker's line")
	}
	got := strings.Join([]string{m[1], m[2], m[3], m[4], m[6], m[7], m[8], m[9], m[10]}, "|")
	if want := "2026-12-01 23:14:27,912|4|2|0|src-a|src-a-0, sink-x-1||sink-y-0|0"; got != want {
		t.Errorf("parsed %q, want %q", got, want)
	}
}
