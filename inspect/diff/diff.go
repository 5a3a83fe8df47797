// Package diff compares two readings of one Connect cluster (two snapshots,
// or a snapshot and the live cluster): connectors and tasks added, removed
// and reconfigured, states, owners, offsets that moved, members that joined
// or left.
package diff

import (
	"bytes"
	"encoding/json"
	"github.com/connectscope/connectscope/inspect/redact"
	"maps"
	"slices"
	"strconv"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/detail"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

// Result is the `diff` view (README "diff"). Every list is sorted and empty
// when nothing of its kind changed; Equal says all are empty.
type Result struct {
	Before     Side              `json:"before"`
	After      Side              `json:"after"`
	Equal      bool              `json:"equal"`
	Changes    int               `json:"changes"` // entries in all lists together
	Connectors []ConnectorChange `json:"connectors"`
	Tasks      []TaskChange      `json:"tasks"`
	Owners     []OwnerChange     `json:"owners"`
	Offsets    []OffsetChange    `json:"offsets"`
	Members    []MemberChange    `json:"members"`
	// Notes say what was not compared because one side lacks it (a kcat
	// dump holds no group and no sink commits).
	Notes []string `json:"notes"`
}

// Side says what one side of the comparison read.
type Side struct {
	Source    string `json:"source"`      // file:PATH or kafka:BOOTSTRAP
	TakenAtMs *int64 `json:"taken_at_ms"` // null when unknown
}

// Change kinds of connectors, tasks and members.
const (
	Added   = "added"
	Removed = "removed"
	Changed = "changed"
	Joined  = "joined"
	Left    = "left"
)

// Value is a field before and after; null is "absent on that side".
type Value struct {
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// KeyChange is one config key whose value differs (secret values redacted
// on both sides unless --show-secrets; they still count as changed).
type KeyChange struct {
	Key    string  `json:"key"`
	Before *string `json:"before"` // null: the key was not set
	After  *string `json:"after"`
}

// ConnectorChange is one connector added, removed or changed. The fields of
// a changed connector are null when they did not change.
type ConnectorChange struct {
	Name        string      `json:"name"`
	Change      string      `json:"change"` // added, removed or changed
	Config      []KeyChange `json:"config"`
	TargetState *Value      `json:"target_state"`
	State       *Value      `json:"state"`
	Worker      *Value      `json:"worker_id"`
	TaskCount   *Value      `json:"task_count"`
	Consistent  *Value      `json:"consistent"`
}

// TaskChange is one task added, removed (by its config or its status) or
// changed.
type TaskChange struct {
	ID        string      `json:"id"`
	Connector string      `json:"connector"`
	Change    string      `json:"change"`
	State     *Value      `json:"state"`
	Worker    *Value      `json:"worker_id"`
	Config    []KeyChange `json:"config"`
}

// OwnerChange is a connector or task held by another group member than
// before (by the members' assignments); null is "held by nobody".
type OwnerChange struct {
	Piece  string  `json:"piece"`
	Kind   string  `json:"kind"` // connector or task
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// OffsetChange is a source offset or a sink group's committed offset that
// moved, appeared or went away.
type OffsetChange struct {
	Connector string `json:"connector"`
	Kind      string `json:"kind"` // source (offsets topic) or sink (committed by the connector's group)
	// Partition is the source partition as compact JSON, or TOPIC-N for a sink.
	Partition string  `json:"partition"`
	Before    *string `json:"before"` // the offset as compact JSON (source) or a number (sink); null when absent
	After     *string `json:"after"`
}

// MemberChange is a worker that joined or left the Connect group, named by
// HOST:PORT of its REST URL (else its client id).
type MemberChange struct {
	Worker string `json:"worker"`
	Change string `json:"change"` // joined or left
}

// Options say how values are shown.
type Options struct {
	ShowSecrets bool
}

// Compare compares two datasets of one cluster, a before and an after.
func Compare(a, b *inspect.Dataset, opts Options) *Result {
	sa, sb := read(a), read(b)
	res := &Result{Before: side(a), After: side(b), Connectors: []ConnectorChange{}, Tasks: []TaskChange{},
		Owners: []OwnerChange{}, Offsets: []OffsetChange{}, Members: []MemberChange{}, Notes: []string{}}
	// What only one side holds is not compared: against a side without it,
	// every owner, member and commit would read as gone.
	if (a.Group == nil) != (b.Group == nil) {
		res.Notes = append(res.Notes, "owners and members not compared: "+lacking(a.Group == nil)+" holds no Connect group description (a kcat dump has none)")
		sa.owners, sb.owners, sa.members, sb.members = nil, nil, nil, nil
	}
	if (len(a.SinkGroups) == 0) != (len(b.SinkGroups) == 0) {
		res.Notes = append(res.Notes, "sink commits not compared: "+lacking(len(a.SinkGroups) == 0)+" holds no sink consumer groups")
		dropSinkOffsets(sa.offsets)
		dropSinkOffsets(sb.offsets)
	}
	for _, name := range union(sa.connectors, sb.connectors) {
		ca, cb := sa.connectors[name], sb.connectors[name]
		if ch, ok := connectorChange(name, ca, cb, opts); ok {
			res.Connectors = append(res.Connectors, ch)
		}
	}
	for _, id := range union(sa.tasks, sb.tasks) {
		if ch, ok := taskChange(id, sa.tasks[id], sb.tasks[id], opts); ok {
			res.Tasks = append(res.Tasks, ch)
		}
	}
	for _, piece := range union(sa.owners, sb.owners) {
		oa, ob := sa.owners[piece], sb.owners[piece]
		if oa.who != ob.who {
			kind := oa.kind
			if kind == "" {
				kind = ob.kind
			}
			res.Owners = append(res.Owners, OwnerChange{Piece: piece, Kind: kind, Before: optional(oa.who), After: optional(ob.who)})
		}
	}
	for _, key := range union(sa.offsets, sb.offsets) {
		oa, ob := sa.offsets[key], sb.offsets[key]
		if oa.value != ob.value {
			o := oa
			if o.connector == "" {
				o = ob
			}
			res.Offsets = append(res.Offsets, OffsetChange{Connector: o.connector, Kind: o.kind, Partition: o.partition,
				Before: optional(oa.value), After: optional(ob.value)})
		}
	}
	for _, w := range union(sa.members, sb.members) {
		switch {
		case !sa.members[w]:
			res.Members = append(res.Members, MemberChange{Worker: w, Change: Joined})
		case !sb.members[w]:
			res.Members = append(res.Members, MemberChange{Worker: w, Change: Left})
		}
	}
	res.Changes = len(res.Connectors) + len(res.Tasks) + len(res.Owners) + len(res.Offsets) + len(res.Members)
	res.Equal = res.Changes == 0
	return res
}

func side(ds *inspect.Dataset) Side {
	s := Side{Source: ds.Source}
	if ds.TakenAtMs != 0 {
		t := ds.TakenAtMs
		s.TakenAtMs = &t
	}
	return s
}

// state is one side decoded into comparable pieces, all keyed by text.
type state struct {
	connectors map[string]*connector
	tasks      map[string]*task
	owners     map[string]owner
	offsets    map[string]offset
	members    map[string]bool
}

type connector struct {
	config                                       map[string]any
	target, state, worker, taskCount, consistent *string
}

type task struct {
	connector     string
	config        map[string]any
	state, worker *string
}

type owner struct{ who, kind string }

type offset struct{ connector, kind, partition, value string }

func read(ds *inspect.Dataset) state {
	st := state{connectors: map[string]*connector{}, tasks: map[string]*task{}, owners: map[string]owner{},
		offsets: map[string]offset{}, members: map[string]bool{}}
	d := views.Decode(ds, store.DecodeOptions{ShowSecrets: true})
	// Secrets are compared in clear and redacted when shown, so a changed
	// password still counts as a change.
	configs, status := d.Configs(), d.Status()
	conn := func(name string) *connector {
		c := st.connectors[name]
		if c == nil {
			c = &connector{}
			st.connectors[name] = c
		}
		return c
	}
	tsk := func(id, name string) *task {
		t := st.tasks[id]
		if t == nil {
			t = &task{connector: name}
			st.tasks[id] = t
		}
		return t
	}
	for _, c := range configs.Connectors {
		x := conn(c.Name)
		x.config = c.Config
		x.target = optional(c.TargetState)
		if c.TaskCount != nil {
			x.taskCount = optional(strconv.Itoa(int(*c.TaskCount)))
		}
		x.consistent = optional(strconv.FormatBool(c.Consistent))
		for _, t := range c.Tasks {
			tsk(t.ID, c.Name).config = t.Config
		}
	}
	for _, s := range status.Connectors {
		x := conn(s.Name)
		x.state, x.worker = optional(s.State), s.WorkerID
	}
	for _, s := range status.Tasks {
		t := tsk(s.ID, s.Connector)
		t.state, t.worker = optional(s.State), s.WorkerID
	}
	offsets := d.Offsets()
	for _, o := range offsets.Offsets {
		part := compact(o.Partition)
		st.offsets["source\x00"+o.Connector+"\x00"+part] = offset{connector: o.Connector, kind: "source", partition: part, value: compact(o.Offset)}
	}
	for _, g := range ds.SinkGroups {
		for _, p := range g.Offsets {
			part := p.Topic + "-" + strconv.Itoa(int(p.Partition))
			st.offsets["sink\x00"+g.Connector+"\x00"+part] = offset{connector: g.Connector, kind: "sink", partition: part, value: strconv.FormatInt(p.Committed, 10)}
		}
	}
	if members := d.Members(); members != nil {
		for _, m := range members.Members {
			who := detail.WorkerName(m)
			st.members[who] = true
			if m.Owned == nil {
				continue
			}
			for _, c := range m.Owned.Connectors {
				st.owners[c] = owner{who: who, kind: "connector"}
			}
			for _, t := range m.Owned.Tasks {
				st.owners[t] = owner{who: who, kind: "task"}
			}
		}
	}
	return st
}

func connectorChange(name string, a, b *connector, opts Options) (ConnectorChange, bool) {
	ch := ConnectorChange{Name: name, Change: Changed, Config: []KeyChange{}}
	switch {
	case a == nil:
		ch.Change, a = Added, &connector{}
	case b == nil:
		ch.Change, b = Removed, &connector{}
	}
	ch.Config = configChanges(a.config, b.config, opts)
	ch.TargetState = value(a.target, b.target)
	ch.State = value(a.state, b.state)
	ch.Worker = value(a.worker, b.worker)
	ch.TaskCount = value(a.taskCount, b.taskCount)
	ch.Consistent = value(a.consistent, b.consistent)
	changed := ch.Change != Changed || len(ch.Config) > 0 || ch.TargetState != nil || ch.State != nil ||
		ch.Worker != nil || ch.TaskCount != nil || ch.Consistent != nil
	return ch, changed
}

func taskChange(id string, a, b *task, opts Options) (TaskChange, bool) {
	ch := TaskChange{ID: id, Change: Changed}
	switch {
	case a == nil:
		ch.Change, a = Added, &task{}
		ch.Connector = b.connector
	case b == nil:
		ch.Change, b = Removed, &task{}
		ch.Connector = a.connector
	default:
		ch.Connector = b.connector
	}
	ch.Config = configChanges(a.config, b.config, opts)
	ch.State = value(a.state, b.state)
	ch.Worker = value(a.worker, b.worker)
	return ch, ch.Change != Changed || len(ch.Config) > 0 || ch.State != nil || ch.Worker != nil
}

// configChanges lists the keys whose values differ, sorted.
func configChanges(a, b map[string]any, opts Options) []KeyChange {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	out := []KeyChange{}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		va, ina := a[k]
		vb, inb := b[k]
		var before, after *string
		if ina {
			before = shown(k, va, opts)
		}
		if inb {
			after = shown(k, vb, opts)
		}
		if ina != inb || detail.ConfigValue(va) != detail.ConfigValue(vb) {
			out = append(out, KeyChange{Key: k, Before: before, After: after})
		}
	}
	return out
}

// shown is a config value as the diff prints it, as every other view shows
// it: a secret key's value redacted (unless it is a provider reference),
// and a credential inside any other value (a URL's password, a bearer
// token), unless secrets are shown.
func shown(key string, v any, opts Options) *string {
	text := detail.ConfigValue(v)
	if !opts.ShowSecrets && v != nil {
		text = redact.Value(key, text)
	}
	return &text
}

func value(a, b *string) *Value {
	if (a == nil) == (b == nil) && (a == nil || *a == *b) {
		return nil
	}
	return &Value{Before: a, After: b}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func union[V any](a, b map[string]V) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return slices.Sorted(maps.Keys(keys))
}

func lacking(before bool) string {
	if before {
		return "BEFORE"
	}
	return "AFTER"
}

func dropSinkOffsets(m map[string]offset) {
	for k, o := range m {
		if o.kind == "sink" {
			delete(m, k)
		}
	}
}
