package check

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/assignor"
)

// BalanceInput is what `check balance` audits: who owns what in the group,
// what is configured, and what the status topic says.
type BalanceInput struct {
	Protocol     string                `json:"protocol"` // eager, compatible or sessioned ("" = sessioned)
	MaxDelayMs   int64                 `json:"max_delay_ms"`
	DelayPending bool                  `json:"delay_pending"` // an assignment announces a scheduled rebalance
	DelayMs      int64                 `json:"delay_ms"`      // the longest delay an assignment announces (time left at that round)
	Workers      []WorkerLoad          `json:"workers"`
	Configured   []ConfiguredConnector `json:"configured"`
	Status       []PieceStatus         `json:"status"`
	Broker       map[string]string     `json:"-"`
	Capacity     int                   `json:"-"` // --capacity tasks per worker; 0 = not given
	Zones        map[string]string     `json:"-"` // worker id → zone; nil = not given
}

// WorkerLoad is one group member and what it owns.
type WorkerLoad struct {
	ID         string   `json:"id"` // worker id, host:port as in status records
	MemberID   string   `json:"member_id"`
	Connectors []string `json:"connectors"`
	Tasks      []string `json:"tasks"`
}

// ConfiguredConnector is a connector of the config topic with its task count.
type ConfiguredConnector struct {
	Name  string `json:"name"`
	Tasks int    `json:"tasks"`
}

// PieceStatus is the status topic's latest word on a connector or task.
type PieceStatus struct {
	ID         string `json:"id"` // connector name, or CONNECTOR-N for a task
	Task       bool   `json:"task"`
	State      string `json:"state"`
	WorkerID   string `json:"worker_id"`
	Generation int64  `json:"generation"`
}

// BalanceReport is the result of `check balance`.
type BalanceReport struct {
	Verdict
	Workers  []WorkerBalance `json:"workers"`
	Capacity *int            `json:"capacity"`
}

// WorkerBalance compares a worker's load with what the assignor would give it.
type WorkerBalance struct {
	Worker             string  `json:"worker"`
	Zone               *string `json:"zone"`
	Connectors         int     `json:"connectors"`
	Tasks              int     `json:"tasks"`
	ExpectedConnectors *int    `json:"expected_connectors"` // from the assignor (plan); null if it could not run
	ExpectedTasks      *int    `json:"expected_tasks"`
}

// Balance runs B1–B9 and K8.
func Balance(in BalanceInput) *BalanceReport {
	var f Findings
	rep := &BalanceReport{Workers: []WorkerBalance{}}
	if in.Capacity > 0 {
		c := in.Capacity
		rep.Capacity = &c
	}
	workers := append([]WorkerLoad{}, in.Workers...)
	sort.SliceStable(workers, func(i, j int) bool { return workers[i].ID < workers[j].ID })
	expected := simulate(in, workers)
	totalConn, totalTasks := 0, 0
	for _, c := range in.Configured {
		totalConn++
		totalTasks += c.Tasks
	}
	for _, w := range workers {
		wb := WorkerBalance{Worker: w.ID, Connectors: len(w.Connectors), Tasks: len(w.Tasks)}
		if z, ok := in.Zones[w.ID]; ok {
			wb.Zone = &z
		}
		if e, ok := expected[w.ID]; ok {
			c, t := len(e.Connectors), len(e.Tasks)
			wb.ExpectedConnectors, wb.ExpectedTasks = &c, &t
		}
		rep.Workers = append(rep.Workers, wb)
	}
	n := len(workers)
	held := heldWork(in, workers)
	if n >= 2 && len(held) == 0 { // while work is held the spread is judged after the delay (B9 says so)
		for _, w := range workers {
			cLo, cHi := totalConn/n, (totalConn+n-1)/n
			tLo, tHi := totalTasks/n, (totalTasks+n-1)/n
			if len(w.Connectors) < cLo || len(w.Connectors) > cHi || len(w.Tasks) < tLo || len(w.Tasks) > tHi {
				f.Add("B1", "worker "+w.ID, fmt.Sprintf("%d connectors and %d tasks; an even spread gives %s connectors and %s tasks",
					len(w.Connectors), len(w.Tasks), span(cLo, cHi), span(tLo, tHi)),
					map[string]any{"connectors": len(w.Connectors), "tasks": len(w.Tasks), "connectors_even": []int{cLo, cHi}, "tasks_even": []int{tLo, tHi}})
			}
		}
	}
	if in.Capacity > 0 && n > 0 {
		busiest := 0
		for _, w := range workers {
			if len(w.Tasks) > busiest {
				busiest = len(w.Tasks)
			}
		}
		if room := in.Capacity * (n - 1); totalTasks > room {
			f.Add("B2", "cluster", fmt.Sprintf("%d tasks need more than %d workers × %d once one of %d workers fails (busiest holds %d)", totalTasks, n-1, in.Capacity, n, busiest),
				map[string]any{"tasks": totalTasks, "workers": n, "capacity": in.Capacity, "busiest_worker_tasks": busiest})
		}
	}
	if in.Zones != nil && n > 0 {
		checkZones(&f, in, workers, totalTasks)
	}
	checkOwnership(&f, in, workers, held)
	if max := brokerValue(in.Broker, "group.max.size", kafkaversion.Version{}); n > 0 && int64(n) > max.N {
		f.Add("K8", "group", fmt.Sprintf("%d workers but group.max.size is %d", n, max.N), map[string]any{"workers": n, "group.max.size": max.N})
	}
	rep.Verdict = verdictOf(f.List())
	return rep
}

func span(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// simulate asks the assignor (package plan) what it would settle on from the
// current ownership; nil when it cannot run on this input.
func simulate(in BalanceInput, workers []WorkerLoad) map[string]assignor.Pieces {
	protocol := in.Protocol
	if protocol == "" {
		protocol = "sessioned"
	}
	sim, err := assignor.NewSim(assignor.SimConfig{Protocol: protocol, MaxDelayMs: in.MaxDelayMs})
	if err != nil || len(workers) == 0 {
		return nil
	}
	specs := make([]assignor.ConnectorSpec, 0, len(in.Configured))
	for _, c := range in.Configured {
		specs = append(specs, assignor.ConnectorSpec{Name: c.Name, Tasks: c.Tasks})
	}
	sim.SetConnectors(specs)
	for _, w := range workers {
		owned := assignor.Pieces{Connectors: append([]string{}, w.Connectors...)}
		for _, t := range w.Tasks {
			id, err := assignor.ParseTaskID(t)
			if err != nil {
				return nil
			}
			owned.Tasks = append(owned.Tasks, id)
		}
		if err := sim.Join(w.ID, owned); err != nil {
			return nil
		}
	}
	sim.Settle(20)
	out := map[string]assignor.Pieces{}
	for _, w := range workers {
		out[w.ID] = sim.Owned(w.ID)
	}
	return out
}

func checkZones(f *Findings, in BalanceInput, workers []WorkerLoad, totalTasks int) {
	perZone := map[string][]string{}
	var missing []string
	for _, w := range workers {
		z, ok := in.Zones[w.ID]
		if !ok {
			missing = append(missing, w.ID)
			continue
		}
		perZone[z] = append(perZone[z], w.ID)
	}
	if len(missing) > 0 {
		f.Add("B4", "zones", "workers missing from the zones file: "+format.List(missing), map[string]any{"workers": missing})
	}
	if len(perZone) == 1 && len(missing) == 0 {
		for z := range perZone {
			f.Add("B4", "zone "+z, fmt.Sprintf("all %d workers are in zone %s", len(workers), z), map[string]any{"zone": z, "workers": len(workers)})
		}
	}
	if in.Capacity <= 0 {
		return
	}
	zones := slices.Sorted(maps.Keys(perZone))
	for _, z := range zones {
		left := len(workers) - len(perZone[z])
		if totalTasks > left*in.Capacity {
			f.Add("B3", "zone "+z, fmt.Sprintf("losing zone %s (%d workers) leaves %d workers × %d for %d tasks", z, len(perZone[z]), left, in.Capacity, totalTasks),
				map[string]any{"zone": z, "zone_workers": len(perZone[z]), "remaining_workers": left, "capacity": in.Capacity, "tasks": totalTasks})
		}
	}
}

// checkOwnership compares the group's ownership with the status topic and
// the configuration: B5–B9.
func checkOwnership(f *Findings, in BalanceInput, workers []WorkerLoad, held map[string]string) {
	owners := map[string][]string{} // piece → workers ("c:" connectors, "t:" tasks)
	for _, w := range workers {
		for _, c := range w.Connectors {
			owners["c:"+c] = append(owners["c:"+c], w.ID)
		}
		for _, t := range w.Tasks {
			owners["t:"+t] = append(owners["t:"+t], w.ID)
		}
	}
	keys := slices.Sorted(maps.Keys(owners))
	for _, k := range keys {
		if ws := owners[k]; len(ws) > 1 {
			f.Add("B5", pieceName(k), fmt.Sprintf("%s is owned by %s", pieceName(k), strings.Join(ws, " and ")), map[string]any{"workers": ws})
		}
	}
	members := map[string]bool{}
	for _, w := range workers {
		members[w.ID] = true
	}
	for _, s := range in.Status {
		key := "c:" + s.ID
		if s.Task {
			key = "t:" + s.ID
		}
		own := owners[key]
		values := map[string]any{"state": s.State, "status_worker_id": s.WorkerID, "generation": s.Generation, "owners": append([]string{}, own...)}
		switch {
		case held[key] != "":
			// Part of the departed worker's held work: one B9 says it all.
		case s.State == "RUNNING" && s.WorkerID != "" && !members[s.WorkerID]:
			f.Add("B7", pieceName(key), fmt.Sprintf("status RUNNING on %s (generation %d), which is not in the group", s.WorkerID, s.Generation), values)
		case s.State == "RUNNING" && len(own) > 0 && !contains(own, s.WorkerID):
			f.Add("B6", pieceName(key), fmt.Sprintf("status RUNNING on %s but the group gives it to %s", s.WorkerID, strings.Join(own, ", ")), values)
		case s.Task && len(own) > 0 && (s.State == "FAILED" || s.State == "UNASSIGNED"):
			f.Add("B8", pieceName(key), fmt.Sprintf("owned by %s but %s in the status topic", strings.Join(own, ", "), s.State), values)
		}
	}
	if len(workers) == 0 {
		return
	}
	byWorker := map[string][]string{} // departed worker → its held pieces; "" = no known worker
	for _, key := range unownedPieces(in, owners) {
		byWorker[held[key]] = append(byWorker[held[key]], strings.TrimPrefix(strings.TrimPrefix(key, "c:"), "t:"))
	}
	departed := slices.Sorted(maps.Keys(byWorker))
	for _, w := range departed {
		pieces := byWorker[w]
		sort.Strings(pieces)
		if w == "" {
			msg := fmt.Sprintf("%d configured pieces are owned by no worker: %s", len(pieces), format.List(pieces))
			if in.DelayPending {
				msg += fmt.Sprintf("; a scheduled rebalance is pending (up to %s), which assigns them", format.Millis(in.DelayMs))
			}
			f.Add("B9", "cluster", msg, map[string]any{"pieces": pieces, "delay_pending": in.DelayPending, "delay_ms": in.DelayMs})
			continue
		}
		rejoined := slices.ContainsFunc(in.Workers, func(m WorkerLoad) bool { return m.ID == w })
		subject := "worker " + w + " (departed)"
		if rejoined {
			subject = "worker " + w + " (rejoined)"
		}
		f.Add("B9", subject, heldMessage(in, w, pieces, rejoined),
			map[string]any{"pieces": pieces, "departed_worker": w, "rejoined": rejoined, "delay_pending": in.DelayPending, "delay_ms": in.DelayMs, "max_delay_ms": knownDelay(in.MaxDelayMs)})
	}
}

// unownedPieces are the configured pieces no member owns ("c:"/"t:" keys).
func unownedPieces(in BalanceInput, owners map[string][]string) []string {
	var out []string
	for _, c := range in.Configured {
		if len(owners["c:"+c.Name]) == 0 {
			out = append(out, "c:"+c.Name)
		}
		for i := 0; i < c.Tasks; i++ {
			if id := fmt.Sprintf("t:%s-%d", c.Name, i); len(owners[id]) == 0 {
				out = append(out, id)
			}
		}
	}
	return out
}

// heldWork maps each configured piece that no member owns and whose last
// status names a worker outside the group to that worker: the work a
// departed worker left, which the leader holds for the scheduled delay.
func heldWork(in BalanceInput, workers []WorkerLoad) map[string]string {
	owned, members := map[string]bool{}, map[string]bool{}
	for _, w := range workers {
		members[w.ID] = true
		for _, c := range w.Connectors {
			owned["c:"+c] = true
		}
		for _, t := range w.Tasks {
			owned["t:"+t] = true
		}
	}
	configured := map[string]bool{}
	for _, c := range in.Configured {
		configured["c:"+c.Name] = true
		for i := 0; i < c.Tasks; i++ {
			configured[fmt.Sprintf("t:%s-%d", c.Name, i)] = true
		}
	}
	out := map[string]string{}
	for _, s := range in.Status {
		key := "c:" + s.ID
		if s.Task {
			key = "t:" + s.ID
		}
		// A member that does not own what its status names while a delay
		// is pending has rejoined within the delay (a new member id): the
		// leader holds that work for its earlier self all the same.
		if configured[key] && !owned[key] && s.WorkerID != "" && (!members[s.WorkerID] || in.DelayPending) {
			out[key] = s.WorkerID
		}
	}
	return out
}

// heldMessage says whose work is held, which pieces, and when they come
// back. The assignment says how long the delay had left when it was sent,
// not when that was: the time left is at most that.
// knownDelay is the setting scheduled.rebalance.max.delay.ms when the input
// says it, else nil: a live read knows only the delay the assignments
// announce, and 0 would read as "no delay" while work is held.
func knownDelay(ms int64) any {
	if ms <= 0 {
		return nil
	}
	return ms
}

// A worker that rejoins within the delay does not end it (assignor.md,
// "Rejoin within the delay"): it is a candidate, dealt the held pieces when
// the delay ends.
func heldMessage(in BalanceInput, worker string, pieces []string, rejoined bool) string {
	msg := fmt.Sprintf("%s left the group; its %d pieces are owned by no one: %s", worker, len(pieces), format.List(pieces))
	if rejoined {
		msg = fmt.Sprintf("%s left the group and rejoined as a new member; the %d pieces it ran are owned by no one: %s", worker, len(pieces), format.List(pieces))
	}
	if !in.DelayPending {
		return msg + "; no scheduled rebalance is pending, so they stay unassigned until some rebalance"
	}
	then := fmt.Sprintf("they are dealt to the empty workers that joined during the delay (%s too, if it rejoins by then), else to the workers left", worker)
	if rejoined {
		then = fmt.Sprintf("%s, empty, gets them back then (shared with any other worker that joined empty during the delay): its return does not end the delay", worker)
	}
	return msg + fmt.Sprintf("; the leader holds them for the scheduled rebalance delay, which ends within %s of the last rebalance (the delay it announced): %s; the spread is uneven until then",
		format.Millis(in.DelayMs), then)
}

func pieceName(key string) string {
	if strings.HasPrefix(key, "c:") {
		return "connector " + key[2:]
	}
	return "task " + key[2:]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseZones reads a zones file: one `WORKER=ZONE` per line (worker ids are
// host:port, so '=' is the only separator), '#' and '!' comment lines.
func ParseZones(name string, data []byte) (map[string]string, error) {
	zones := map[string]string{}
	for i, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%s: line %d: want WORKER=ZONE (e.g. 10.0.0.1:8083=eu-west-1a), got %q", name, i+1, line)
		}
		zones[strings.ReplaceAll(k, `\:`, ":")] = v
	}
	return zones, nil
}
