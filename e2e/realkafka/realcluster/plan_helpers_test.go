//go:build e2e

package realcluster

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// planJSON is the part of a what-if plan's -o json output the comparisons
// read.
type planJSON struct {
	Protocol    string   `json:"protocol"`
	Notes       []string `json:"notes"`
	Assumptions struct {
		Model []string `json:"model"`
	} `json:"assumptions"`
	Branches []struct {
		Name        string        `json:"name"`
		Cooperative *planTimeline `json:"cooperative"`
		Eager       *planTimeline `json:"eager"`
	} `json:"branches"`
}

type planTimeline struct {
	Protocol string `json:"protocol"`
	Rounds   []struct {
		Trigger string `json:"trigger"`
		TimeMs  int64  `json:"time_ms"`
		EndMs   int64  `json:"end_ms"`
		Workers []struct {
			Worker             string   `json:"worker"`
			RevokedConnectors  []string `json:"revoked_connectors"`
			RevokedTasks       []string `json:"revoked_tasks"`
			AssignedConnectors []string `json:"assigned_connectors"`
			AssignedTasks      []string `json:"assigned_tasks"`
			Connectors         int      `json:"connectors"`
			Tasks              int      `json:"tasks"`
		} `json:"workers"`
	} `json:"rounds"`
	Notes   []string `json:"notes"`
	Summary struct {
		EndMs           int64    `json:"end_ms"`
		NotRunningAtEnd []string `json:"not_running_at_end"`
		TaskMs          int64    `json:"task_ms_not_running"`
		AllRunning      *int64   `json:"all_running_after_ms"`
	} `json:"summary"`
}

// runPlan runs a plan command (no cluster flags: plans read --from) and
// decodes its JSON.
func (c *cluster) runPlan(args ...string) planJSON {
	c.t.Helper()
	stdout, stderr, code := run(append(args, "-o", "json")...)
	if code != 0 {
		c.t.Fatalf("connectscope %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	var p planJSON
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		c.t.Fatalf("connectscope %s: %v\n%s", strings.Join(args, " "), err, stdout)
	}
	return p
}

// timeline is the branch's timeline of the group's protocol: eager for a
// group that selected "default", the cooperative one otherwise.
func (p planJSON) timeline(branch int) (*planTimeline, error) {
	if branch >= len(p.Branches) {
		return nil, fmt.Errorf("plan has %d branches, want branch %d", len(p.Branches), branch)
	}
	b := p.Branches[branch]
	tl := b.Cooperative
	if p.Protocol == "default" || p.Protocol == "eager" {
		tl = b.Eager
	}
	if tl == nil || len(tl.Rounds) == 0 {
		return nil, fmt.Errorf("branch %q has no rounds for protocol %s", b.Name, p.Protocol)
	}
	return tl, nil
}

var restartSuffix = regexp.MustCompile(`\.\d+$`)

// final applies the timeline's rounds to the initial ownership (by member
// id) and returns what the members of the last round own, by worker id;
// workerOf names the worker of a plan's member id (a restarted worker's
// "ID.2" is the worker of ID).
func (tl *planTimeline) final(initial map[string][]string, workerOf map[string]string) (ownership, error) {
	own := map[string]map[string]bool{}
	for id, ps := range initial {
		own[id] = map[string]bool{}
		for _, p := range ps {
			own[id][p] = true
		}
	}
	last := tl.Rounds[len(tl.Rounds)-1]
	for _, r := range tl.Rounds {
		for _, w := range r.Workers {
			o := own[w.Worker]
			if o == nil {
				o = map[string]bool{}
				own[w.Worker] = o
			}
			for _, p := range pieces(w.RevokedConnectors, w.RevokedTasks) {
				delete(o, p)
			}
			for _, p := range pieces(w.AssignedConnectors, w.AssignedTasks) {
				o[p] = true
			}
		}
	}
	out := ownership{}
	for _, w := range last.Workers {
		id, ok := workerOf[w.Worker]
		if !ok {
			id, ok = workerOf[restartSuffix.ReplaceAllString(w.Worker, "")]
		}
		if !ok {
			return nil, fmt.Errorf("plan member %s is no known worker (%v)", w.Worker, workerOf)
		}
		var ps []string
		for p := range own[w.Worker] {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		cs, ts := 0, 0
		for _, p := range ps {
			if strings.HasPrefix(p, "c:") {
				cs++
			} else {
				ts++
			}
		}
		if cs != w.Connectors || ts != w.Tasks {
			return nil, fmt.Errorf("replaying the plan's rounds gives %s %d connectors and %d tasks, the plan says %d and %d", w.Worker, cs, ts, w.Connectors, w.Tasks)
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("two plan members end on worker %s", id)
		}
		out[id] = ps
	}
	return out, nil
}

// initialOwnership is what each member owns in a snapshot, by member id,
// and the member id -> worker id map.
func (c *cluster) initialOwnership(snapshot string) (map[string][]string, map[string]string) {
	c.t.Helper()
	stdout, stderr, code := run("inspect", "members", "--from", snapshot, "-o", "json")
	if code != 0 {
		c.t.Fatalf("inspect members --from %s: exit %d\n%s", snapshot, code, stderr)
	}
	var m membersJSON
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		c.t.Fatal(err)
	}
	own := map[string][]string{}
	for _, mb := range m.Members {
		own[mb.MemberID] = pieces(mb.Owned.Connectors, mb.Owned.Tasks)
	}
	return own, m.urlOfMember()
}

// describe is the timeline's rounds, one line per worker that changes.
func (tl *planTimeline) describe(workerOf map[string]string) string {
	var b strings.Builder
	for i, r := range tl.Rounds {
		for _, w := range r.Workers {
			if len(w.RevokedConnectors)+len(w.RevokedTasks)+len(w.AssignedConnectors)+len(w.AssignedTasks) == 0 {
				continue
			}
			name := w.Worker
			if id, ok := workerOf[restartSuffix.ReplaceAllString(w.Worker, "")]; ok {
				name = id
			}
			fmt.Fprintf(&b, "\n  round %d %s: assigned c=%v t=%v revoked c=%v t=%v", i+1, name, w.AssignedConnectors, w.AssignedTasks, w.RevokedConnectors, w.RevokedTasks)
		}
	}
	return b.String()
}
