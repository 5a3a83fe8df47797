// Package protocol encodes and decodes the Connect group protocol: member
// metadata, assignments and the join protocols a worker offers
// (connect-internals.md §5). Standard library only.
package protocol

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// Connect group protocol names (JoinGroup protocol names) and the metadata
// and assignment header versions that go with them.
const (
	ProtocolEager      = "default"    // connect.protocol=eager, header version 0
	ProtocolCompatible = "compatible" // header version 1 (KIP-415)
	ProtocolSessioned  = "sessioned"  // header version 2 (KIP-507)
)

// Assignment errors Kafka writes; a worker treats any non-zero value as failed.
const (
	AssignmentNoError        = 0
	AssignmentConfigMismatch = 1
)

// ConnectorEntry is one connector entry of an assignment: the connector and
// the ids listed for it, where -1 means the Connector instance itself.
type ConnectorEntry struct {
	Connector string  `json:"connector"`
	Tasks     []int32 `json:"tasks"`
}

// TaskRef names one task of a connector; it prints as Kafka does, CONNECTOR-N.
type TaskRef struct {
	Connector string
	Task      int32
}

func (t TaskRef) String() string { return t.Connector + "-" + strconv.FormatInt(int64(t.Task), 10) }

// CompareTaskRefs orders tasks by connector name, then task number.
func CompareTaskRefs(a, b TaskRef) int {
	if c := cmp.Compare(a.Connector, b.Connector); c != 0 {
		return c
	}
	return cmp.Compare(a.Task, b.Task)
}

// Assignment is a Connect assignment blob (SyncGroup member assignment, or
// the allocation embedded in V1/V2 member metadata). Every version is held
// in the V1 shape, as Kafka's worker decodes them all with the V1 parser.
type Assignment struct {
	Version      int16
	Error        int16
	Leader       string // the leader's member id
	LeaderURL    string
	ConfigOffset int64
	Assigned     []ConnectorEntry // nil when null or absent (Kafka: empty)
	Revoked      []ConnectorEntry // nil when null or absent; always absent in V0
	DelayMs      int32
	// Warnings lists what Kafka accepts but never writes (invalid UTF-8,
	// duplicates, task ids below -1, unknown error codes, trailing bytes).
	Warnings []string
}

// Connectors returns the assigned connectors, duplicate-free, in byte order.
func (a *Assignment) Connectors() []string { c, _ := entryPieces(a.Assigned); return c }

// Tasks returns the assigned tasks, duplicate-free, in byte order.
func (a *Assignment) Tasks() []TaskRef { _, t := entryPieces(a.Assigned); return t }

// RevokedConnectors returns the revoked connectors, duplicate-free, in byte order.
func (a *Assignment) RevokedConnectors() []string { c, _ := entryPieces(a.Revoked); return c }

// RevokedTasks returns the revoked tasks, duplicate-free, in byte order.
func (a *Assignment) RevokedTasks() []TaskRef { _, t := entryPieces(a.Revoked); return t }

// entryPieces turns connector entries into connector and task lists the way
// Kafka's decoder does (-1 = the connector, any other id = a task), keeping
// only the first occurrence of each piece.
func entryPieces(entries []ConnectorEntry) ([]string, []TaskRef) {
	conns := []string{}
	tasks := []TaskRef{}
	seenC := map[string]bool{}
	seenT := map[TaskRef]bool{}
	for _, e := range entries {
		for _, id := range e.Tasks {
			if id == -1 {
				if !seenC[e.Connector] {
					seenC[e.Connector] = true
					conns = append(conns, e.Connector)
				}
				continue
			}
			t := TaskRef{Connector: e.Connector, Task: id}
			if !seenT[t] {
				seenT[t] = true
				tasks = append(tasks, t)
			}
		}
	}
	return conns, tasks
}

// EntriesFor builds connector entries as Kafka's writers do: one entry per
// connector, in the given order, starting with -1; then each task appended
// to its connector's entry, or to a new entry at the end. (Kafka iterates
// the assigned connectors in Java HashSet order; pass them in the order you
// want on the wire.)
func EntriesFor(connectors []string, tasks []TaskRef) []ConnectorEntry {
	entries := []ConnectorEntry{}
	index := map[string]int{}
	for _, c := range connectors {
		if _, ok := index[c]; ok {
			continue
		}
		index[c] = len(entries)
		entries = append(entries, ConnectorEntry{Connector: c, Tasks: []int32{-1}})
	}
	for _, t := range tasks {
		i, ok := index[t.Connector]
		if !ok {
			i = len(entries)
			index[t.Connector] = i
			entries = append(entries, ConnectorEntry{Connector: t.Connector})
		}
		entries[i].Tasks = append(entries[i].Tasks, t.Task)
	}
	return entries
}

// DecodeAssignment decodes an assignment of any version with Kafka's V1
// rules: a negative version is an error; V0 bytes end after the assigned
// array (revoked and delay default to empty and 0); trailing bytes are
// ignored. On error the returned Assignment holds the fields read so far.
func DecodeAssignment(b []byte) (*Assignment, error) {
	return decodeAssignment(b, "assignment")
}

func decodeAssignment(b []byte, blob string) (*Assignment, error) {
	r := &wireReader{buf: b, blob: blob}
	a := &Assignment{}
	err := readAssignment(r, a)
	if err == nil {
		checkEntryDuplicates(r, "assigned", a.Assigned)
		checkEntryDuplicates(r, "revoked", a.Revoked)
		if r.left() > 0 {
			r.warn("%d trailing bytes after the last known field ignored", r.left())
		}
	}
	a.Warnings = r.warnings
	return a, err
}

func readAssignment(r *wireReader, a *Assignment) error {
	var err error
	if a.Version, err = r.version(); err != nil {
		return err
	}
	if a.Error, err = r.int16("error"); err != nil {
		return err
	}
	if a.Error != AssignmentNoError && a.Error != AssignmentConfigMismatch {
		r.warn("unknown error code %d (a worker treats it as a failed assignment)", a.Error)
	}
	if a.Leader, err = r.str("leader"); err != nil {
		return err
	}
	if a.LeaderURL, err = r.str("leader_url"); err != nil {
		return err
	}
	if a.ConfigOffset, err = r.int64("config_offset"); err != nil {
		return err
	}
	// The rest is lenient: a field that starts exactly at the end of the
	// buffer takes its default; a partly present one is an error.
	if r.left() == 0 {
		return nil
	}
	if a.Assigned, err = readConnectorEntries(r, "assigned"); err != nil {
		return err
	}
	if r.left() == 0 {
		return nil
	}
	if a.Revoked, err = readConnectorEntries(r, "revoked"); err != nil {
		return err
	}
	if r.left() == 0 {
		return nil
	}
	if a.DelayMs, err = r.int32("delay"); err != nil {
		return err
	}
	if a.DelayMs < 0 {
		r.warn("negative delay %d ms schedules no rebalance", a.DelayMs)
	}
	return nil
}

// readConnectorEntries reads a nullable array of connector entries; nil means null.
func readConnectorEntries(r *wireReader, field string) ([]ConnectorEntry, error) {
	start := r.pos
	n, err := r.int32(field + " count")
	if err != nil {
		return nil, err
	}
	if n < 0 {
		if n < -1 {
			r.warn("%s count %d read as null", field, n)
		}
		return nil, nil
	}
	if int(n) > r.left() {
		r.pos = start
		return nil, r.fail(field, "count %d larger than the %d bytes left", n, r.left())
	}
	entries := make([]ConnectorEntry, 0, n)
	for i := 0; i < int(n); i++ {
		name := fmt.Sprintf("%s[%d]", field, i)
		conn, err := r.str(name + ".connector")
		if err != nil {
			return entries, err
		}
		idsStart := r.pos
		m, err := r.int32(name + ".tasks count")
		if err != nil {
			return entries, err
		}
		if m < 0 {
			r.pos = idsStart
			return entries, r.fail(name+".tasks", "negative count %d", m)
		}
		if int(m) > r.left() {
			r.pos = idsStart
			return entries, r.fail(name+".tasks", "count %d larger than the %d bytes left", m, r.left())
		}
		ids := make([]int32, 0, m)
		for k := 0; k < int(m); k++ {
			id, err := r.int32(fmt.Sprintf("%s.tasks[%d]", name, k))
			if err != nil {
				return entries, err
			}
			if id < -1 {
				r.warn("%s lists task %d of %q: a negative task number", field, id, conn)
			}
			ids = append(ids, id)
		}
		entries = append(entries, ConnectorEntry{Connector: conn, Tasks: ids})
	}
	return entries, nil
}

func checkEntryDuplicates(r *wireReader, field string, entries []ConnectorEntry) {
	seenC := map[string]bool{}
	seenT := map[TaskRef]bool{}
	for _, e := range entries {
		for _, id := range e.Tasks {
			if id == -1 {
				if seenC[e.Connector] {
					r.warn("%s lists connector %q more than once", field, e.Connector)
				}
				seenC[e.Connector] = true
				continue
			}
			t := TaskRef{Connector: e.Connector, Task: id}
			if seenT[t] {
				r.warn("%s lists task %s more than once", field, t)
			}
			seenT[t] = true
		}
	}
}

// EncodeAssignment writes an assignment as Kafka's writers do for its
// version: V0 is header, error, leader, leader URL, config offset and the
// assigned array; V1 and later add revoked and delay. Null arrays are
// written as empty ones (Kafka never writes -1). A V0 assignment that
// carries revoked entries or a delay (only possible from decoding odd bytes)
// keeps them, so that decode and encode round-trip.
func EncodeAssignment(a *Assignment) ([]byte, error) {
	w := &wireWriter{blob: "assignment"}
	if err := writeAssignment(w, a); err != nil {
		return nil, err
	}
	return w.buf, nil
}

func writeAssignment(w *wireWriter, a *Assignment) error {
	if a == nil {
		return fmt.Errorf("%s: no assignment to encode", w.blob)
	}
	if a.Version < 0 {
		return fmt.Errorf("%s: negative version %d", w.blob, a.Version)
	}
	w.int16(a.Version)
	w.int16(a.Error)
	if err := w.str("leader", a.Leader); err != nil {
		return err
	}
	if err := w.str("leader_url", a.LeaderURL); err != nil {
		return err
	}
	w.int64(a.ConfigOffset)
	if err := writeConnectorEntries(w, "assigned", a.Assigned); err != nil {
		return err
	}
	if a.Version == 0 && a.Revoked == nil && a.DelayMs == 0 {
		return nil
	}
	if err := writeConnectorEntries(w, "revoked", a.Revoked); err != nil {
		return err
	}
	w.int32(a.DelayMs)
	return nil
}

func writeConnectorEntries(w *wireWriter, field string, entries []ConnectorEntry) error {
	w.int32(int32(len(entries)))
	for i, e := range entries {
		if err := w.str(fmt.Sprintf("%s[%d].connector", field, i), e.Connector); err != nil {
			return err
		}
		w.int32(int32(len(e.Tasks)))
		for _, id := range e.Tasks {
			w.int32(id)
		}
	}
	return nil
}

// SortedTaskStrings returns tasks as CONNECTOR-N strings, sorted by
// connector then task number, without duplicates.
func SortedTaskStrings(tasks []TaskRef) []string {
	s := slices.Clone(tasks)
	slices.SortFunc(s, CompareTaskRefs)
	s = slices.Compact(s)
	out := make([]string, len(s))
	for i, t := range s {
		out[i] = t.String()
	}
	return out
}
