// Package group reads the Connect group: members and what they hold, and
// sink connectors' consumer groups.
package group

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/inspect/setting"
)

// MembersResult is the `inspect members` view of the Connect group
// (json-output.md "inspect members").
type MembersResult struct {
	Group        string  `json:"group"`
	State        string  `json:"state"`
	ProtocolType string  `json:"protocol_type"`
	Protocol     string  `json:"protocol"`
	Leader       *string `json:"leader"` // from the members' assignments; null when none says
	// LeaderWorker is the leader's HOST:PORT name (as each member's worker),
	// from its member entry or else the leader URL the assignments give;
	// null with leader.
	LeaderWorker *string `json:"leader_worker"`
	Note         *string `json:"note"` // why the view is partial or not a Connect group; null when all is normal
	// ConfigEndOffset is the config topic's end offset when it was read
	// (live or from a snapshot); null when unknown.
	ConfigEndOffset *int64       `json:"config_end_offset"`
	Members         []MemberView `json:"members"`
	// HeldByOther says a group of another kind (consumer, share, streams)
	// holds the id; the note names it. Not in the JSON contract.
	HeldByOther bool `json:"-"`
	// note is Note naming settings; NameSettings renders it in the
	// caller's words.
	note setting.Text
}

// NameSettings rewrites Note with the settings it names in n's words (the
// commands give their flag names).
func (r *MembersResult) NameSettings(n setting.Namer) {
	if r.Note != nil && !r.note.IsZero() {
		s := r.note.With(n)
		r.Note = &s
	}
}

// MemberView is one Connect worker in the group.
type MemberView struct {
	// Worker is the HOST:PORT name status records, plans, --worker and
	// --zones use (WorkerID).
	Worker       string  `json:"worker"`
	MemberID     string  `json:"member_id"`
	ClientID     string  `json:"client_id"`
	ClientHost   string  `json:"client_host"`
	URL          *string `json:"url"`
	Version      *int16  `json:"version"` // member metadata version
	ConfigOffset *int64  `json:"config_offset"`
	// ConfigLag is config_end_offset − config_offset (at least 0), and
	// ConfigBehind says whether the worker has not read the whole config
	// topic; both null when the end offset or the worker's offset is unknown.
	ConfigLag    *int64       `json:"config_lag"`
	ConfigBehind *bool        `json:"config_behind"`
	Owned        *OwnedPieces `json:"owned"` // null when it cannot be derived
	// Held is Owned in the worker's own order (assignor.md §6.3), which
	// decides what a load-balancing round trims first; for plans, not JSON.
	Held       *HeldPieces     `json:"-"`
	Assignment *AssignmentView `json:"assignment"`
	// The raw bytes, only when they do not decode (or the group is not a
	// Connect group); null otherwise.
	MetadataBase64   *string  `json:"metadata_base64"`
	AssignmentBase64 *string  `json:"assignment_base64"`
	Problem          *string  `json:"problem"`
	Warnings         []string `json:"warnings"` // odd but accepted bytes (connect-internals.md §4.5)
}

// HeldPieces is what a worker holds in the order it holds it: the latest
// assignment's newly assigned pieces, then what its metadata allocation
// held minus the revoked ones; repeats keep their first place.
type HeldPieces struct {
	Connectors []string
	Tasks      []protocol.TaskRef
}

// OwnedPieces is what a worker holds now; both lists sorted.
type OwnedPieces struct {
	Connectors []string `json:"connectors"`
	Tasks      []string `json:"tasks"`
}

// AssignmentView is the latest assignment the leader sent to a member; lists sorted.
type AssignmentView struct {
	Version           int16    `json:"version"`
	Error             int16    `json:"error"`
	Leader            string   `json:"leader"`
	LeaderURL         string   `json:"leader_url"`
	LeaderWorker      string   `json:"leader_worker"` // the leader's HOST:PORT, from leader_url
	ConfigOffset      int64    `json:"config_offset"`
	Connectors        []string `json:"connectors"`
	Tasks             []string `json:"tasks"`
	RevokedConnectors []string `json:"revoked_connectors"`
	RevokedTasks      []string `json:"revoked_tasks"`
	DelayMs           int64    `json:"delay_ms"`
}

// Members decodes a described Connect group into the members view. It never
// fails: members whose bytes do not decode keep their entry with the raw
// bytes and a problem, and situations where the view cannot be trusted
// (not a Connect group, empty, rebalancing) are explained in Note.
func Members(desc *inspect.GroupDescription) MembersResult {
	if desc == nil {
		note := "no group description was read (the Connect group was not described)"
		return MembersResult{Note: &note, Members: []MemberView{}}
	}
	res := MembersResult{
		Group:        desc.Group,
		State:        desc.State,
		ProtocolType: desc.ProtocolType,
		Protocol:     desc.Protocol,
		Members:      []MemberView{},
	}
	var notes []setting.Text
	connect := desc.ProtocolType == "connect"
	if desc.ErrorCode != 0 && !inspect.GroupMissing(desc) { // 4.x's GROUP_ID_NOT_FOUND reads as older brokers' Dead
		notes = append(notes, setting.Textf("describing the group returned error code %d", desc.ErrorCode))
	}
	if o := desc.Other; o != nil {
		notes = append(notes, setting.Textf("%s", otherGroupNote(desc.Group, o)))
		res.HeldByOther = true
	}
	switch {
	case !connect && desc.ProtocolType == "" && len(desc.Members) == 0:
		// An empty or unknown group has no protocol type; the state note says enough.
	case !connect:
		notes = append(notes, setting.Textf("group %q has protocol type %q, not \"connect\": it is not a Kafka Connect group, so member bytes are shown raw and not decoded", desc.Group, desc.ProtocolType))
	}
	switch desc.State {
	case "Empty":
		notes = append(notes, setting.Textf("the group is empty: no worker is a member right now"))
	case "Dead":
		if desc.Other != nil {
			break // the note on the other group says what holds the id
		}
		notes = append(notes, setting.Textf("the group is dead or does not exist: no worker is a member (is %q the workers' group.id? set it with %v or %v)", desc.Group, setting.GroupID, setting.WorkerConfig))
	case "PreparingRebalance", "CompletingRebalance":
		notes = append(notes, setting.Textf("the group is rebalancing (%s): metadata and assignments are only reliable when the group is Stable, so what is shown may be empty or stale; look again in a few seconds", desc.State))
	case "Stable":
	default:
		notes = append(notes, setting.Textf("unknown group state %q", desc.State))
	}
	if len(desc.Members) == 0 && desc.State != "Empty" && desc.State != "Dead" && desc.Other == nil {
		notes = append(notes, setting.Textf("the group has no members"))
	}

	leaders := map[string]bool{}
	listed := map[string]int{}
	for _, m := range desc.Members {
		// A group has each member once; a description that repeats one
		// (an edited or corrupt snapshot) is read by its first entry, so
		// that views and plans count the member once and say so.
		if listed[m.MemberID]++; listed[m.MemberID] > 1 {
			continue
		}
		view := MemberView{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, Warnings: []string{}}
		if !connect {
			view.Worker = m.MemberID
			view.MetadataBase64 = base64Of(m.Metadata)
			view.AssignmentBase64 = base64Of(m.Assignment)
			res.Members = append(res.Members, view)
			continue
		}
		asg := decodeMember(&view, m, desc.Protocol)
		if asg != nil && asg.Leader != "" {
			leaders[asg.Leader] = true
		}
		view.Worker = WorkerID(view)
		res.Members = append(res.Members, view)
	}
	slices.SortFunc(res.Members, func(a, b MemberView) int { return strings.Compare(a.MemberID, b.MemberID) })
	for _, m := range res.Members {
		if n := listed[m.MemberID]; n > 1 {
			notes = append(notes, setting.Textf("member %q is listed %d times in the group description: only its first entry is read", m.MemberID, n))
		}
	}

	switch len(leaders) {
	case 0:
	case 1:
		for l := range leaders {
			res.Leader = &l
		}
		res.LeaderWorker = leaderWorker(res.Members, *res.Leader)
	default:
		names := make([]string, 0, len(leaders))
		for l := range leaders {
			names = append(names, l)
		}
		slices.Sort(names)
		notes = append(notes, setting.Textf("assignments name different leaders (%s): they come from different rounds", strings.Join(names, ", ")))
	}
	if len(notes) > 0 {
		res.note = setting.Join(notes, "; ")
		n := res.note.String()
		res.Note = &n
	}
	return res
}

// leaderWorker is the leader's HOST:PORT: its member's worker name, or,
// when it is no member any more, the one its assignments' leader URL gives.
func leaderWorker(members []MemberView, leader string) *string {
	name := ""
	for _, m := range members {
		if m.MemberID == leader {
			return &m.Worker
		}
		if a := m.Assignment; a != nil && a.Leader == leader && name == "" {
			name = a.LeaderWorker
		}
	}
	if name == "" {
		name = leader
	}
	return &name
}

// decodeMember fills view from one member's bytes and returns its decoded
// assignment (nil when there is none or it does not decode).
func decodeMember(view *MemberView, m inspect.GroupMember, groupProtocol string) *protocol.Assignment {
	var problems []string
	meta := decodeOrKeep(m.Metadata, protocol.DecodeMetadata, &problems, &view.MetadataBase64)
	if meta != nil {
		u := redact.URL(meta.URL)
		view.URL = &u
		view.Version = &meta.Version
		view.ConfigOffset = &meta.ConfigOffset
		view.Warnings = append(view.Warnings, prefixWarnings("metadata: ", meta.Warnings)...)
	}
	asg := decodeOrKeep(m.Assignment, protocol.DecodeAssignment, &problems, &view.AssignmentBase64)
	if asg != nil {
		view.Assignment = assignmentView(asg)
		view.Warnings = append(view.Warnings, prefixWarnings("assignment: ", asg.Warnings)...)
	}
	// Eager when the group selected "default"; with no selected groupProtocol
	// (mid-rebalance) V0 metadata is the best hint.
	isEager := groupProtocol == protocol.ProtocolEager || (groupProtocol == "" && meta != nil && meta.Version == 0)
	switch {
	case isEager && asg != nil:
		// An eager assignment is complete: it is what the worker runs.
		view.Owned = piecesOf(asg.Connectors(), asg.Tasks())
		view.Held = heldPieces(asg.Connectors(), asg.Tasks())
	case !isEager && meta != nil && (asg != nil || len(m.Assignment) == 0):
		view.Owned, view.Held = cooperative(meta.Allocation, asg)
	}
	if len(problems) > 0 {
		p := strings.Join(problems, "; ")
		view.Problem = &p
	}
	return asg
}

// cooperative is what a cooperative worker holds after its latest
// assignment: the allocation's assigned lists (its own revoked lists are
// history) minus the assignment's revoked pieces, which it kept, and the
// assignment's assigned ones. Held is in the worker's order: Connect's
// worker puts newly assigned pieces before what it kept.
func cooperative(alloc, asg *protocol.Assignment) (*OwnedPieces, *HeldPieces) {
	var keptC, newC []string
	var keptT, newT []protocol.TaskRef
	if alloc != nil {
		keptC, keptT = alloc.Connectors(), alloc.Tasks()
	}
	if asg != nil {
		revC, revT := asg.RevokedConnectors(), asg.RevokedTasks()
		keptC = slices.DeleteFunc(keptC, func(c string) bool { return slices.Contains(revC, c) })
		keptT = slices.DeleteFunc(keptT, func(t protocol.TaskRef) bool { return slices.Contains(revT, t) })
		newC, newT = asg.Connectors(), asg.Tasks()
	}
	return piecesOf(slices.Concat(keptC, newC), slices.Concat(keptT, newT)),
		heldPieces(slices.Concat(newC, keptC), slices.Concat(newT, keptT))
}

// heldPieces drops repeats, keeping each piece's first place.
func heldPieces(conns []string, tasks []protocol.TaskRef) *HeldPieces {
	h := &HeldPieces{Connectors: []string{}, Tasks: []protocol.TaskRef{}}
	seenC := map[string]bool{}
	for _, c := range conns {
		if !seenC[c] {
			seenC[c] = true
			h.Connectors = append(h.Connectors, c)
		}
	}
	seenT := map[protocol.TaskRef]bool{}
	for _, t := range tasks {
		if !seenT[t] {
			seenT[t] = true
			h.Tasks = append(h.Tasks, t)
		}
	}
	return h
}

func piecesOf(conns []string, tasks []protocol.TaskRef) *OwnedPieces {
	c := slices.Clone(conns)
	slices.Sort(c)
	c = slices.Compact(c)
	if c == nil {
		c = []string{}
	}
	return &OwnedPieces{Connectors: c, Tasks: protocol.SortedTaskStrings(tasks)}
}

func assignmentView(a *protocol.Assignment) *AssignmentView {
	conns := piecesOf(a.Connectors(), a.Tasks())
	rev := piecesOf(a.RevokedConnectors(), a.RevokedTasks())
	return &AssignmentView{
		Version: a.Version, Error: a.Error, Leader: a.Leader, LeaderURL: redact.URL(a.LeaderURL), ConfigOffset: a.ConfigOffset,
		LeaderWorker: WorkerID(MemberView{MemberID: a.Leader, URL: &a.LeaderURL}),
		Connectors:   conns.Connectors, Tasks: conns.Tasks,
		RevokedConnectors: rev.Connectors, RevokedTasks: rev.Tasks,
		DelayMs: int64(a.DelayMs),
	}
}

// decodeOrKeep decodes a member's metadata or assignment bytes; bytes that
// do not decode add their error to problems and are kept, in base64, in
// *kept. nil when there are no bytes or they do not decode.
func decodeOrKeep[T any](raw []byte, decode func([]byte) (*T, error), problems *[]string, kept **string) *T {
	if len(raw) == 0 {
		return nil
	}
	v, err := decode(raw)
	if err != nil {
		*problems = append(*problems, err.Error())
		*kept = base64Of(raw)
		return nil
	}
	return v
}

func base64Of(b []byte) *string {
	if b == nil {
		return nil
	}
	s := base64.StdEncoding.EncodeToString(b)
	return &s
}

func prefixWarnings(prefix string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = prefix + s
	}
	return out
}

// WorkerID is the worker id (host:port) of a member, the one derivation
// checks and plans use: from its REST URL or, failing that, its client id
// connect-host:port; else its member id.
func WorkerID(m MemberView) string {
	if m.URL != nil {
		u := *m.URL
		if i := strings.Index(u, "://"); i >= 0 {
			u = u[i+3:]
		}
		u = strings.TrimSuffix(u, "/")
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[:j]
		}
		if j := strings.LastIndexByte(u, '@'); j >= 0 {
			u = u[j+1:] // user:password@ is a credential, never part of the name
		}
		if u != "" {
			return u
		}
	}
	if id, ok := strings.CutPrefix(m.ClientID, "connect-"); ok && strings.Contains(id, ":") {
		return id
	}
	return m.MemberID
}
