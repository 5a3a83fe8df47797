package workers

import (
	"strconv"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
)

// Tables shows one row per member: its HOST:PORT alone in the first
// column (the name flags accept, also under --no-headers), whether it
// leads, version, health, latency, plugins, error. -o wide adds the commit,
// the URL, the health stage and the member id.
func (r Result) Tables() []format.Table {
	t := format.Table{Title: "workers",
		Header: []string{"WORKER", "LEADER", "VERSION", "HEALTH", "LATENCY", "PLUGINS", "ERROR", "COMMIT", "STAGE", "URL", "MEMBER"},
		Rows:   [][]string{}, Wide: []int{7, 8, 9, 10}}
	for _, w := range r.Workers {
		health, stage := "-", "-"
		if w.Health != nil {
			health = w.Health.Status
			if w.Health.Stage != "" {
				stage = w.Health.Stage
			}
		}
		latency := "-"
		if w.LatencyMs != nil {
			latency = strconv.FormatFloat(*w.LatencyMs, 'f', 1, 64) + "ms"
		}
		plugins := "-"
		if w.PluginCount != nil {
			plugins = strconv.Itoa(*w.PluginCount)
		}
		leader := "-"
		if w.Leader {
			leader = "leader"
		}
		t.Rows = append(t.Rows, []string{w.Worker, leader, format.TextOr(w.Version, "-"), health, latency, plugins,
			format.TextOr(w.Error, "-"), format.TextOr(w.Commit, "-"), stage, format.TextOr(&w.URL, "-"), format.TextOr(&w.MemberID, "-")})
	}
	t.Footer = append(t.Footer, strconv.Itoa(r.Reached)+" of "+strconv.Itoa(len(r.Workers))+" workers answered")
	return []format.Table{t}
}

// Items prints one JSON line per worker with -o jsonl.
func (r Result) Items() []any { return format.Items(r.Workers) }

// Tables shows the gaps first (what will break), then the matrix: one row
// per plugin class, one column per worker with its version ("-" when the
// worker lacks it).
func (m Matrix) Tables() []format.Table {
	gaps := format.Table{Title: "gaps",
		Header: []string{"CONNECTOR", "KEY", "CLASS", "PIN", "WORKER", "PROBLEM", "HELD NOW", "COULD LAND"},
		Rows:   [][]string{}, Wide: []int{7}}
	for _, g := range m.Gaps {
		gaps.Rows = append(gaps.Rows, []string{g.Connector, g.Key, g.Class, format.TextOr(g.Pin, "-"), g.Worker, g.Reason,
			listOr(g.Now), listOr(g.CouldLand)})
	}
	if len(m.Gaps) == 0 {
		gaps.Footer = append(gaps.Footer, "every worker that answered has every class and version the config topic uses")
	}
	matrix := format.Table{Title: "plugins", Header: append([]string{"CLASS", "TYPE"}, m.Workers...), Rows: [][]string{}}
	matrix.Header = append(matrix.Header, "USED BY")
	for _, p := range m.Plugins {
		row := []string{p.Class, p.Type}
		for _, w := range m.Workers {
			vs, ok := p.Versions[w]
			switch {
			case !ok:
				row = append(row, "-")
			default:
				row = append(row, versionList(vs))
			}
		}
		matrix.Rows = append(matrix.Rows, append(row, listOr(p.UsedBy)))
	}
	for _, u := range m.Unknown {
		matrix.Footer = append(matrix.Footer, u.Worker+": plugins unknown ("+u.Reason+")")
	}
	return []format.Table{gaps, matrix}
}

// Items prints one JSON line per gap with -o jsonl.
func (m Matrix) Items() []any { return format.Items(m.Gaps) }

func listOr(l []string) string {
	if len(l) == 0 {
		return "-"
	}
	return strings.Join(l, ",")
}

// Tables shows one row per restart seen, then the longest per worker.
func (r RestartTimes) Tables() []format.Table {
	t := format.Table{Title: "restarts", Header: []string{"WORKER", "DOWN AT", "HEALTHY AFTER", "REJOINED AFTER", "RESTART", "STAGES"},
		Rows: [][]string{}, Wide: []int{5}}
	ms := func(p *int64) string {
		if p == nil {
			return "-"
		}
		return format.Millis(*p)
	}
	for _, x := range r.Restarts {
		t.Rows = append(t.Rows, []string{x.Worker, time.UnixMilli(x.DownAtMs).UTC().Format(time.RFC3339), ms(x.HealthMs), ms(x.JoinMs), ms(x.RestartMs), listOr(x.Stages)})
	}
	if len(r.Restarts) == 0 {
		t.Footer = append(t.Footer, "no worker restarted while watched")
	}
	t.Footer = append(t.Footer, "each time is late by up to the look interval, "+format.Millis(r.IntervalMs))
	return []format.Table{t}
}

// Items prints one JSON line per restart with -o jsonl.
func (r RestartTimes) Items() []any { return format.Items(r.Restarts) }
