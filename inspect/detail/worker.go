package detail

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

// Worker is one Connect worker whole, the mirror of Connector (as kubectl
// describe node shows one node): its names, whether it leads, what it runs
// with the states its status records give, what the last round assigned and
// revoked, its config offset, and the work whose status names it but no
// member holds (held for the scheduled delay after it left).
type Worker struct {
	Worker       string  `json:"worker"` // HOST:PORT, as status records, --worker and --zones name it
	Member       bool    `json:"member"` // in the group now
	MemberID     *string `json:"member_id"`
	URL          *string `json:"url"`
	ClientID     *string `json:"client_id"`
	ClientHost   *string `json:"client_host"`
	Leader       bool    `json:"leader"`
	Protocol     string  `json:"protocol"` // the group's selected protocol
	Version      *int16  `json:"version"`  // member metadata version
	ConfigOffset *int64  `json:"config_offset"`
	ConfigLag    *int64  `json:"config_lag"`
	ConfigBehind *bool   `json:"config_behind"`
	// Connectors and Tasks are what it owns now, each with the state its
	// status record holds and the worker that wrote it.
	Connectors []Piece `json:"connectors"`
	Tasks      []Piece `json:"tasks"`
	// Assignment is the last round's: what the leader sent it (assigned,
	// revoked, the delay); null when it is not a member.
	Assignment *group.AssignmentView `json:"assignment"`
	// Held is work whose status names this worker but no member owns:
	// what it ran before it left, held for the scheduled delay.
	Held  []Piece  `json:"held"`
	Notes []string `json:"notes"`
}

// Piece is a connector or task with its stored status.
type Piece struct {
	Name     string  `json:"name"`
	Kind     string  `json:"kind"` // connector or task
	State    *string `json:"state"`
	WorkerID *string `json:"worker_id"` // the worker its status names
}

// DescribeWorker builds the view of the worker name: its HOST:PORT, host,
// REST URL, client id or member id.
func DescribeWorker(ds *views.Dataset, name string) (*Worker, error) {
	members := ds.MembersView()
	status := ds.Status()
	owned := map[string]bool{}
	for _, m := range members.Members {
		if m.Owned != nil {
			for _, c := range m.Owned.Connectors {
				owned["c "+c] = true
			}
			for _, t := range m.Owned.Tasks {
				owned["t "+t] = true
			}
		}
	}
	var member *group.MemberView
	for i, m := range members.Members {
		if workerNamed(m, name) {
			member = &members.Members[i]
			break
		}
	}
	w := &Worker{Protocol: members.Protocol, Connectors: []Piece{}, Tasks: []Piece{}, Held: []Piece{}, Notes: []string{}}
	if member != nil {
		w.Worker, w.Member = member.Worker, true
		w.MemberID, w.URL, w.ClientID, w.ClientHost = &member.MemberID, member.URL, &member.ClientID, &member.ClientHost
		w.Leader = members.Leader != nil && *members.Leader == member.MemberID
		w.Version, w.ConfigOffset, w.ConfigLag, w.ConfigBehind = member.Version, member.ConfigOffset, member.ConfigLag, member.ConfigBehind
		w.Assignment = member.Assignment
	} else if namesWorker(status, name) {
		w.Worker = name // exactly as a status record names it, '/' and all
	} else {
		w.Worker = hostPortOf(name)
	}
	connState := map[string]Piece{}
	for _, c := range status.Connectors {
		connState[c.Name] = Piece{Name: c.Name, Kind: "connector", State: &c.State, WorkerID: c.WorkerID}
	}
	taskState := map[string]Piece{}
	for _, t := range status.Tasks {
		taskState[t.ID] = Piece{Name: t.ID, Kind: "task", State: &t.State, WorkerID: t.WorkerID}
	}
	named := false
	if member != nil && member.Owned != nil {
		for _, c := range member.Owned.Connectors {
			w.Connectors = append(w.Connectors, pieceOr(connState, c, "connector"))
		}
		for _, t := range member.Owned.Tasks {
			w.Tasks = append(w.Tasks, pieceOr(taskState, t, "task"))
		}
	}
	// Held: the status names this worker, no member owns the piece.
	for _, c := range status.Connectors {
		if c.WorkerID != nil && *c.WorkerID == w.Worker {
			named = true
			if len(members.Members) > 0 && !owned["c "+c.Name] {
				w.Held = append(w.Held, connState[c.Name])
			}
		}
	}
	for _, t := range status.Tasks {
		if t.WorkerID != nil && *t.WorkerID == w.Worker {
			named = true
			if len(members.Members) > 0 && !owned["t "+t.ID] && t.State != "UNASSIGNED" {
				w.Held = append(w.Held, taskState[t.ID])
			}
		}
	}
	if member == nil && !named {
		return nil, &NotFoundError{Kind: "worker", Name: name, Known: knownWorkers(members, status.Tasks)}
	}
	if member == nil {
		w.Notes = append(w.Notes, "not a member of the group now: status records name it, so it ran work before it left")
	}
	if ds.Group == nil {
		w.Notes = append(w.Notes, "the input holds no group description (a kcat dump): membership, ownership and assignments are unknown")
	}
	slices.SortFunc(w.Held, func(a, b Piece) int { return strings.Compare(a.Name, b.Name) })
	return w, nil
}

func pieceOr(m map[string]Piece, name, kind string) Piece {
	if p, ok := m[name]; ok {
		return p
	}
	return Piece{Name: name, Kind: kind}
}

// workerNamed says whether name is one of the member's names.
func workerNamed(m group.MemberView, name string) bool {
	if name == "" {
		return false
	}
	names := []string{m.Worker, m.MemberID, m.ClientID, strings.TrimPrefix(m.ClientID, "connect-")}
	if m.URL != nil {
		names = append(names, *m.URL, strings.TrimSuffix(*m.URL, "/"))
	}
	if h, _, ok := strings.Cut(m.Worker, ":"); ok {
		names = append(names, h)
	}
	return slices.Contains(names, name)
}

// hostPortOf is the HOST:PORT a name gives for a worker that is no member:
// a REST URL loses its scheme and path.
// namesWorker reports whether a status record names the worker exactly.
func namesWorker(status *store.StatusResult, name string) bool {
	for _, c := range status.Connectors {
		if c.WorkerID != nil && *c.WorkerID == name {
			return true
		}
	}
	for _, t := range status.Tasks {
		if t.WorkerID != nil && *t.WorkerID == name {
			return true
		}
	}
	return false
}

func hostPortOf(name string) string {
	if i := strings.Index(name, "://"); i >= 0 {
		name = name[i+3:]
	}
	name, _, _ = strings.Cut(name, "/")
	return name
}

func knownWorkers(members group.MembersResult, tasks []store.TaskStatus) []string {
	seen := map[string]bool{}
	for _, m := range members.Members {
		seen[m.Worker] = true
	}
	for _, t := range tasks {
		if t.WorkerID != nil {
			seen[*t.WorkerID] = true
		}
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b string) int {
		switch {
		case format.NaturalLess(a, b):
			return -1
		case format.NaturalLess(b, a):
			return 1
		}
		return 0
	})
	return out
}

// Tables shows the worker as `inspect connector` shows a connector: its
// fields, then what it runs and the work held that was its own.
func (w *Worker) Tables() []format.Table {
	fields := format.Table{Title: "Worker " + w.Worker, Header: []string{"FIELD", "VALUE"}, Wrap: []int{1}}
	add := func(k, v string) { fields.Rows = append(fields.Rows, []string{k, v}) }
	add("member", strconv.FormatBool(w.Member))
	add("member id", format.TextOr(w.MemberID, "-"))
	add("REST URL", format.TextOr(w.URL, "-"))
	add("client id", format.TextOr(w.ClientID, "-"))
	add("client host", strings.TrimPrefix(format.TextOr(w.ClientHost, "-"), "/"))
	add("leader", strconv.FormatBool(w.Leader))
	add("protocol", orDash(w.Protocol))
	if w.Version != nil {
		add("metadata version", strconv.Itoa(int(*w.Version)))
	}
	if w.ConfigOffset != nil {
		off := strconv.FormatInt(*w.ConfigOffset, 10)
		if w.ConfigLag != nil {
			off += fmt.Sprintf(" (lag %d", *w.ConfigLag)
			if w.ConfigBehind != nil && *w.ConfigBehind {
				off += ", behind"
			}
			off += ")"
		}
		add("config offset", off)
	}
	add("connectors/tasks", fmt.Sprintf("%d/%d", len(w.Connectors), len(w.Tasks)))
	if a := w.Assignment; a != nil {
		add("last round: assigned", joinOrDash(append(slices.Clone(a.Connectors), a.Tasks...)))
		add("last round: revoked", joinOrDash(append(slices.Clone(a.RevokedConnectors), a.RevokedTasks...)))
		add("last round: delay", format.Millis(a.DelayMs))
	}
	fields.Footer = w.Notes
	runs := format.Table{Title: "Runs", Header: []string{"NAME", "KIND", "STATE", "STATUS WORKER"}, Rows: [][]string{}}
	for _, p := range append(slices.Clone(w.Connectors), w.Tasks...) {
		runs.Rows = append(runs.Rows, p.row())
	}
	out := []format.Table{fields, runs}
	if len(w.Held) > 0 {
		held := format.Table{Title: "Held (its own work, owned by no member)", Header: []string{"NAME", "KIND", "STATE", "STATUS WORKER"}}
		for _, p := range w.Held {
			held.Rows = append(held.Rows, p.row())
		}
		out = append(out, held)
	}
	return out
}

func (p Piece) row() []string {
	return []string{p.Name, p.Kind, format.TextOr(p.State, "-"), format.TextOr(p.WorkerID, "-")}
}

func joinOrDash(ss []string) string {
	if len(ss) == 0 {
		return "-"
	}
	return strings.Join(ss, ", ")
}
