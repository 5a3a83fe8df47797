package store

import (
	"sort"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect/redact"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// StatusResult is the `inspect status` model (json-output.md): the statuses
// Connect's KafkaStatusBackingStore holds after reading the records in order.
type StatusResult struct {
	Topic      string               `json:"topic"`
	Connectors []ConnectorStatus    `json:"connectors"`
	Tasks      []TaskStatus         `json:"tasks"`
	Topics     []TopicStatus        `json:"topics"`
	Records    inspect.RecordCounts `json:"records"`
	Problems   []inspect.Problem    `json:"problems"`
}

// Status is what a worker last wrote for a connector or a task (Connect's
// AbstractStatus): the state, the worker, the group generation and, for a
// failure, the trace (redacted).
type Status struct {
	State      string  `json:"state"`
	WorkerID   *string `json:"worker_id"`
	Generation int32   `json:"generation"`
	Trace      *string `json:"trace"`
}

// ConnectorStatus is the status a worker last wrote for a connector.
type ConnectorStatus struct {
	Name string `json:"name"`
	Status
}

// TaskStatus is the status a worker last wrote for a task.
type TaskStatus struct {
	ID        string `json:"id"`
	Connector string `json:"connector"`
	Task      int32  `json:"task"`
	Status
}

// TopicStatus is a topic a connector has used (KIP-558).
type TopicStatus struct {
	Connector           string `json:"connector"`
	Topic               string `json:"topic"`
	Task                int32  `json:"task"`
	DiscoverTimestampMs int64  `json:"discover_timestamp_ms"`
}

type connectorStatusEntry struct {
	has    bool
	status statusValue
	tasks  taskStatuses
}

// taskStatuses holds one connector's task statuses: numbers 0..maxDenseTask
// in a slice (the usual case, and much cheaper than a map per connector over
// a million records), any other number in a map.
type taskStatuses struct {
	dense []taskSlot
	other map[int32]*statusValue
}

type taskSlot struct {
	has bool
	v   statusValue
}

const maxDenseTask = 4095 // a hostile key must not size the slice

// get returns the status held for task n, or nil. The pointer is valid until
// the next put.
func (t *taskStatuses) get(n int32) *statusValue {
	if n >= 0 && n <= maxDenseTask {
		if int(n) < len(t.dense) && t.dense[n].has {
			return &t.dense[n].v
		}
		return nil
	}
	return t.other[n]
}

// put returns a place for task n's status, creating it.
func (t *taskStatuses) put(n int32) *statusValue {
	if n >= 0 && n <= maxDenseTask {
		if int(n) >= len(t.dense) {
			t.dense = append(t.dense, make([]taskSlot, int(n)+1-len(t.dense))...)
		}
		t.dense[n].has = true
		return &t.dense[n].v
	}
	if t.other == nil {
		t.other = map[int32]*statusValue{}
	}
	v := t.other[n]
	if v == nil {
		v = &statusValue{}
		t.other[n] = v
	}
	return v
}

func (t *taskStatuses) remove(n int32) {
	if n >= 0 && n <= maxDenseTask {
		if int(n) < len(t.dense) {
			t.dense[n] = taskSlot{}
		}
		return
	}
	delete(t.other, n)
}

// each calls f for every held task in ascending task number.
func (t *taskStatuses) each(f func(n int32, v *statusValue)) {
	others := sortedTaskIDs(t.other)
	k := 0
	for ; k < len(others) && others[k] < 0; k++ {
		f(others[k], t.other[others[k]])
	}
	for n := range t.dense {
		if t.dense[n].has {
			f(int32(n), &t.dense[n].v)
		}
	}
	for ; k < len(others); k++ {
		f(others[k], t.other[others[k]])
	}
}

type statusReplay struct {
	connectors map[string]*connectorStatusEntry
	topics     map[[2]string]*topicStatusEntry // (connector, topic) from the key
	rules      statusRules                     // what the chosen Kafka release does (status_version.go)
}

// DecodeStatus replays status-topic records in the order given with Connect's
// rules (connect-internals.md §7).
func DecodeStatus(records []inspect.Record, opts DecodeOptions) *StatusResult {
	d := NewStatusDecoder(opts)
	for i := range records {
		d.Add(&records[i])
	}
	return d.Result()
}

// StatusDecoder decodes a status topic one record at a time, so a reader can
// stream a big dump without holding every record. It keeps references into
// the Value of records whose status is still held: callers must not reuse
// those byte slices.
type StatusDecoder struct {
	opts  DecodeOptions
	st    statusReplay
	res   StatusResult
	topic string
}

// NewStatusDecoder starts an empty status replay.
func NewStatusDecoder(opts DecodeOptions) *StatusDecoder {
	return &StatusDecoder{
		opts: opts,
		st:   statusReplay{connectors: map[string]*connectorStatusEntry{}, topics: map[[2]string]*topicStatusEntry{}, rules: statusRulesOf(opts.KafkaVersion)},
		res:  StatusResult{Problems: []inspect.Problem{}},
	}
}

// Add applies the next record in log order.
func (d *StatusDecoder) Add(r *inspect.Record) {
	if d.res.Records.Read == 0 {
		d.topic = r.Topic
	}
	d.res.Records.Read++
	reason := d.st.apply(r)
	switch {
	case reason != "": // an invalid key with a null value too: Kafka discards it
		d.res.Records.Problems++
		d.res.Problems = append(d.res.Problems, recordProblem(*r, reason))
	case r.Value == nil:
		d.res.Records.Tombstones++
	default:
		d.res.Records.Decoded++
	}
}

// Result renders what has been read so far.
func (d *StatusDecoder) Result() *StatusResult {
	res := d.res
	res.Problems = append([]inspect.Problem{}, d.res.Problems...)
	res.Topic = topicName(d.opts.Topic, d.topic, inspect.DefaultTopicNames().Status)
	d.st.fill(&res, d.opts)
	return &res
}

func (st *statusReplay) apply(r *inspect.Record) string {
	key := r.Key
	if key == nil {
		return "record has no key"
	}
	if !utf8.Valid(key) {
		key = []byte(keyText(key))
	}
	var k StatusKey[[]byte]
	parseStatusKey(key, &k)
	switch {
	case !k.Valid(): // Kafka discards it, with a null value too
		return k.Reason(key)
	case k.Kind == StatusKeyConnector:
		return st.connector(k.Connector, r.Value)
	case k.Kind == StatusKeyTask:
		return st.task(k.Connector, k.Task, r.Value)
	}
	return st.topic(ParseStatusKey(string(key)), r.Value) // one string holds both names
}

func (st *statusReplay) connector(name []byte, value []byte) string {
	entry := st.connectors[string(name)]
	if value == nil {
		// A connector tombstone also drops its tasks' statuses (not topics).
		if entry != nil {
			entry.has = false
			entry.status = statusValue{}
			entry.tasks = taskStatuses{}
		}
		return ""
	}
	v, reason := scanned(value, scanStatusValue, parseStatusValueSlow)
	if reason != "" {
		return reason
	}
	entry = st.kept(name, entry)
	entry.has = true
	entry.status = v
	return ""
}

// kept is the connector's entry: entry, or a new one kept under name when
// the connector has none yet.
func (st *statusReplay) kept(name []byte, entry *connectorStatusEntry) *connectorStatusEntry {
	if entry == nil {
		entry = &connectorStatusEntry{}
		st.connectors[string(name)] = entry
	}
	return entry
}

func (st *statusReplay) task(name []byte, n int32, value []byte) string {
	entry := st.connectors[string(name)]
	if value == nil {
		if entry != nil {
			entry.tasks.remove(n)
		}
		return ""
	}
	v, reason := scanned(value, scanStatusValue, parseStatusValueSlow)
	if reason != "" {
		return reason
	}
	entry = st.kept(name, entry)
	held := entry.tasks.get(n)
	if held == nil {
		held = entry.tasks.put(n)
	} else if st.rules.staleUnassignedIgnored && v.state == stateUnassigned && held.state == stateRunning && held.generation >= v.generation {
		return "" // a stale UNASSIGNED loses to RUNNING of an equal or later generation
	}
	*held = v
	return ""
}

// shown is the status as the views show it: the state's name, the trace
// redacted unless opts show secrets.
func (v *statusValue) shown(opts DecodeOptions) Status {
	return Status{State: statusStateNames[v.state], WorkerID: statusText(v.worker),
		Generation: v.generation, Trace: redact.Trace(statusText(v.trace), opts.ShowSecrets)}
}

func (st *statusReplay) fill(res *StatusResult, opts DecodeOptions) {
	names := make([]string, 0, len(st.connectors))
	for name := range st.connectors {
		if opts.Connector == "" || opts.Connector == name {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	res.Connectors = []ConnectorStatus{}
	res.Tasks = []TaskStatus{}
	for _, name := range names {
		e := st.connectors[name]
		if e.has {
			res.Connectors = append(res.Connectors, ConnectorStatus{Name: name, Status: e.status.shown(opts)})
		}
		e.tasks.each(func(n int32, t *statusValue) {
			res.Tasks = append(res.Tasks, TaskStatus{
				ID: protocol.TaskRef{Connector: name, Task: n}.String(), Connector: name, Task: n, Status: t.shown(opts),
			})
		})
	}
	entries := make([]*topicStatusEntry, 0, len(st.topics))
	for _, e := range st.topics {
		if opts.Connector == "" || opts.Connector == e.value.Connector || opts.Connector == e.keyConnector {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.value.Connector != b.value.Connector {
			return a.value.Connector < b.value.Connector
		}
		if a.value.Topic != b.value.Topic {
			return a.value.Topic < b.value.Topic
		}
		if a.keyConnector != b.keyConnector {
			return a.keyConnector < b.keyConnector
		}
		return a.keyTopic < b.keyTopic
	})
	res.Topics = make([]TopicStatus, 0, len(entries))
	for _, e := range entries {
		res.Topics = append(res.Topics, e.value)
	}
}
