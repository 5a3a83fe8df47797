// Package workers is `inspect workers`: every member of the Connect group
// asked through its advertised REST URL (inspect/rest), one row per member
// with its version, health, latency and plugins, or the error that kept it
// from answering; and the plugin matrix: which worker has which plugin at
// which version, and which classes and version pins (KIP-891) used in the
// config topic some worker cannot satisfy.
package workers

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"

	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/rest"
)

// Result is the `inspect workers` view (JSON contract: add fields, never
// rename or remove).
type Result struct {
	Group   string `json:"group"`
	Members int    `json:"members"`  // members in the group description
	Reached int    `json:"answered"` // members whose GET / answered
	// PerRequestMs and TotalMs are the bounds the round ran with.
	PerRequestMs int64 `json:"per_request_ms"`
	TotalMs      int64 `json:"total_ms"`
	Workers      []Row `json:"workers"`
}

// Row is one group member as its REST API answered.
type Row struct {
	rest.WorkerInfo
	MemberID    string `json:"member_id"`
	Leader      bool   `json:"leader"`
	PluginCount *int   `json:"plugin_count"` // null when the plugins are unknown
}

// Targets lists the REST URL each member advertises, in the group's
// order, named HOST:PORT as status records name workers. A member without
// metadata (the group is rebalancing) is asked at the HOST:PORT of its
// client.id; one without either is kept with an empty URL, a row with an
// error.
func Targets(m *group.MembersResult) ([]rest.Target, []string) {
	if m == nil {
		return nil, nil
	}
	out := make([]rest.Target, 0, len(m.Members))
	ids := make([]string, 0, len(m.Members))
	for _, mv := range m.Members {
		t := rest.Target{Worker: group.WorkerID(mv)}
		switch {
		case mv.URL != nil:
			t.URL = *mv.URL
		case strings.HasPrefix(mv.ClientID, "connect-") && strings.Contains(t.Worker, ":"):
			// A rebalancing group's members carry no metadata; Connect's
			// client.id is connect-<advertised HOST:PORT>.
			t.URL, t.Guessed = "http://"+t.Worker+"/", true
		}
		out = append(out, t)
		ids = append(ids, mv.MemberID)
	}
	return out, ids
}

// Ask fans out to every member of the group and builds the view.
func Ask(ctx context.Context, c *rest.Client, m *group.MembersResult, calls rest.Calls) *Result {
	targets, ids := Targets(m)
	infos := c.Workers(ctx, targets, calls)
	return Build(m, ids, infos, c.Options())
}

// Build turns the answers into the view, rows sorted by worker name.
func Build(m *group.MembersResult, memberIDs []string, infos []rest.WorkerInfo, opts rest.Options) *Result {
	res := &Result{Workers: []Row{}, PerRequestMs: opts.PerRequest.Milliseconds(), TotalMs: opts.Total.Milliseconds()}
	leader := ""
	if m != nil {
		res.Group = m.Group
		res.Members = len(m.Members)
		if m.Leader != nil {
			leader = *m.Leader
		}
	}
	for i, info := range infos {
		r := Row{WorkerInfo: info}
		if i < len(memberIDs) {
			r.MemberID = memberIDs[i]
			r.Leader = leader != "" && (leader == r.MemberID || leader == r.Worker)
		}
		if info.Plugins != nil {
			n := len(info.Plugins)
			r.PluginCount = &n
		}
		if info.Reached() {
			res.Reached++
		}
		res.Workers = append(res.Workers, r)
	}
	sort.SliceStable(res.Workers, func(i, j int) bool { return res.Workers[i].Worker < res.Workers[j].Worker })
	return res
}

// NoneAnswered is the error of a round in which no member answered GET /:
// the input (every worker's REST API) could not be read at all, so the
// command fails (exit 3) rather than print a table of errors as if it had
// worked. One line names the workers (escaped, at most ten) and the fix;
// nil when some worker answered or there was none to ask.
func (r *Result) NoneAnswered() error {
	if r == nil || len(r.Workers) == 0 || r.Reached > 0 {
		return nil
	}
	names := make([]string, len(r.Workers))
	for i, w := range r.Workers {
		names[i] = format.EscapeLine(w.Worker)
	}
	first := ""
	if w := r.Workers[0]; w.Error != nil {
		first = " (" + w.Worker + ": " + *w.Error + ")"
	}
	return fmt.Errorf("no worker answered its REST API: %s%s; check that the REST URLs the workers advertise (rest.advertised.host.name/port, listeners) are reachable from here, and --rest-timeout, --rest-user, --rest-ca", format.List(names), format.EscapeLine(first))
}
