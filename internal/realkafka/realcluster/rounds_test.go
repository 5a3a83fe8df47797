package realcluster

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
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
