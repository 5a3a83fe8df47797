package store

import (
	"bytes"
	"encoding/json"
	"github.com/connectscope/connectscope/inspect/redact"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
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

// ConnectorStatus is the status a worker last wrote for a connector.
type ConnectorStatus struct {
	Name       string  `json:"name"`
	State      string  `json:"state"`
	WorkerID   *string `json:"worker_id"`
	Generation int32   `json:"generation"`
	Trace      *string `json:"trace"`
}

// TaskStatus is the status a worker last wrote for a task.
type TaskStatus struct {
	ID         string  `json:"id"`
	Connector  string  `json:"connector"`
	Task       int32   `json:"task"`
	State      string  `json:"state"`
	WorkerID   *string `json:"worker_id"`
	Generation int32   `json:"generation"`
	Trace      *string `json:"trace"`
}

// TopicStatus is a topic a connector has used (KIP-558).
type TopicStatus struct {
	Connector           string `json:"connector"`
	Topic               string `json:"topic"`
	Task                int32  `json:"task"`
	DiscoverTimestampMs int64  `json:"discover_timestamp_ms"`
}

// statusState is a status state name, kept small on the hot path.
type statusState uint8

const (
	stateNone statusState = iota
	stateUnassigned
	stateRunning
	statePaused
	stateFailed
	stateDestroyed
	stateRestarting
	stateStopped
)

var statusStateNames = [...]string{"", "UNASSIGNED", "RUNNING", "PAUSED", "FAILED", "DESTROYED", "RESTARTING", "STOPPED"}

func parseStatusState(b []byte) statusState {
	for i := 1; i < len(statusStateNames); i++ {
		if string(b) == statusStateNames[i] {
			return statusState(i)
		}
	}
	return stateNone
}

// statusValue is a decoded connector or task status. worker and trace stay
// raw JSON tokens (sub-slices of the record value) and are only turned into
// strings for the statuses that win: most records of a big topic lose.
type statusValue struct {
	state      statusState
	generation int32
	worker     []byte // JSON string token, or nil for null/absent
	trace      []byte
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

type topicStatusEntry struct {
	keyConnector, keyTopic string
	value                  TopicStatus
}

type statusReplay struct {
	connectors map[string]*connectorStatusEntry
	topics     map[[2]string]*topicStatusEntry // (connector, topic) from the key
	rules      statusRules                     // what the chosen Kafka release does (status_version.go)
}

var (
	prefixStatusConnector = []byte("status-connector-")
	prefixStatusTask      = []byte("status-task-")
	prefixStatusTopic     = []byte("status-topic-")
)

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
	res.Topic = d.opts.Topic
	if res.Topic == "" {
		res.Topic = d.topic
	}
	if res.Topic == "" {
		res.Topic = inspect.DefaultTopicNames().Status
	}
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
	switch {
	case bytes.HasPrefix(key, prefixStatusConnector):
		return st.connector(key[len(prefixStatusConnector):], r.Value)
	case bytes.HasPrefix(key, prefixStatusTask):
		return st.task(key, r.Value)
	case bytes.HasPrefix(key, prefixStatusTopic):
		return st.topic(key, r.Value)
	}
	return "key has no prefix Connect writes to the status topic: " + strconv.Quote(string(key))
}

func (st *statusReplay) connector(name []byte, value []byte) string {
	if len(name) == 0 {
		if value == nil {
			return ""
		}
		return "connector status key has an empty connector name"
	}
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
	v, reason := parseStatusValue(value)
	if reason != "" {
		return reason
	}
	if entry == nil {
		entry = &connectorStatusEntry{}
		st.connectors[string(name)] = entry
	}
	entry.has = true
	entry.status = v
	return ""
}

// parseStatusTaskKey splits status-task-<connector>-<n> as Kafka does
// (Java split on "-", trailing empty parts dropped, at least 4 parts).
func parseStatusTaskKey(key []byte) (connector []byte, task int32, ok bool) {
	trimmed := bytes.TrimRight(key, "-")
	if len(trimmed) <= len(prefixStatusTask) {
		return nil, 0, false
	}
	rest := trimmed[len(prefixStatusTask):]
	dash := bytes.LastIndexByte(rest, '-')
	if dash < 0 {
		return nil, 0, false
	}
	n, ok := javaParseIntBytes(rest[dash+1:])
	if !ok {
		return nil, 0, false
	}
	return rest[:dash], n, true
}

// javaParseIntBytes is Integer.parseInt for ASCII input, without allocating.
func javaParseIntBytes(b []byte) (int32, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg = true
		b = b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 11 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	if n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int32(n), true
}

func (st *statusReplay) task(key []byte, value []byte) string {
	name, n, ok := parseStatusTaskKey(key)
	if !ok { // Kafka discards it as invalid, with a null value too
		return "task status key without a task number: " + strconv.Quote(string(key))
	}
	if len(name) == 0 {
		return "task status key has an empty connector name"
	}
	entry := st.connectors[string(name)]
	if value == nil {
		if entry != nil {
			entry.tasks.remove(n)
		}
		return ""
	}
	v, reason := parseStatusValue(value)
	if reason != "" {
		return reason
	}
	if entry == nil {
		entry = &connectorStatusEntry{}
		st.connectors[string(name)] = entry
	}
	held := entry.tasks.get(n)
	if held == nil {
		held = entry.tasks.put(n)
	} else if st.rules.staleUnassignedIgnored && v.state == stateUnassigned && held.state == stateRunning && held.generation >= v.generation {
		return "" // a stale UNASSIGNED loses to RUNNING of an equal or later generation
	}
	*held = v
	return ""
}

// parseStatusValue decodes {"state","trace","worker_id","generation"}. The
// common, well-formed case is scanned by hand without allocating; anything
// unusual goes through encoding/json, which also explains what is wrong.
func parseStatusValue(value []byte) (statusValue, string) {
	if v, ok := scanStatusValue(value); ok {
		return v, ""
	}
	return parseStatusValueSlow(value)
}

func parseStatusValueSlow(value []byte) (statusValue, string) {
	var v statusValue
	m, reason := jsonObject(value)
	if reason != "" {
		return v, reason
	}
	state, ok := jsonText(m["state"])
	if !ok {
		return v, "status has no string \"state\""
	}
	if v.state = parseStatusState([]byte(state)); v.state == stateNone {
		return v, "unknown status state " + strconv.Quote(state)
	}
	gen, ok := jsonLong(m["generation"])
	if !ok {
		return v, "status has no integer \"generation\""
	}
	v.generation = javaInt(gen)
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{"worker_id", &v.worker}, {"trace", &v.trace}} {
		raw := m[f.name]
		if isJSONNull(raw) {
			continue
		}
		if _, ok := jsonText(raw); !ok {
			return v, "status field \"" + f.name + "\" is not a string"
		}
		*f.dst = bytes.TrimSpace(raw)
	}
	return v, ""
}

// scanStatusValue is the allocation-free fast path of parseStatusValue. It
// succeeds only for valid JSON objects with flat members, unescaped member
// names and well-typed status fields; it reports false for everything else.
func scanStatusValue(b []byte) (statusValue, bool) {
	var v statusValue
	var stateTok, genTok []byte
	i := jsonscan.Space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return v, false
	}
	i = jsonscan.Space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return v, false // no state: let the slow path say so
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return v, false
		}
		end, escaped, ok := jsonscan.String(b, i)
		if !ok || escaped {
			return v, false
		}
		name := b[i+1 : end-1]
		i = jsonscan.Space(b, end)
		if i >= len(b) || b[i] != ':' {
			return v, false
		}
		i = jsonscan.Space(b, i+1)
		start := i
		kind, next, ok := jsonscan.Scalar(b, i)
		if !ok {
			return v, false
		}
		tok := b[start:next]
		switch string(name) {
		case "state":
			if kind != jsonscan.KindString {
				return v, false
			}
			stateTok = tok
		case "generation":
			if kind != jsonscan.KindInteger {
				return v, false
			}
			genTok = tok
		case "worker_id", "trace":
			dst := &v.trace
			if name[0] == 'w' {
				dst = &v.worker
			}
			switch kind {
			case jsonscan.KindNull:
				*dst = nil
			case jsonscan.KindString:
				*dst = tok
			default:
				return v, false
			}
		}
		next, more, ok := jsonscan.NextMember(b, next)
		if !ok {
			return v, false
		}
		i = next
		if !more {
			break
		}
	}
	if jsonscan.Space(b, i+1) != len(b) || stateTok == nil || genTok == nil {
		return v, false
	}
	if bytes.IndexByte(stateTok, '\\') >= 0 {
		return v, false
	}
	if v.state = parseStatusState(stateTok[1 : len(stateTok)-1]); v.state == stateNone {
		return v, false
	}
	gen, ok := integerToken(genTok)
	if !ok {
		return v, false
	}
	v.generation = javaInt(gen)
	return v, true
}

func (st *statusReplay) topic(key []byte, value []byte) string {
	keyTopic, keyConnector, ok := parseStatusTopicKey(string(key))
	if !ok {
		if value == nil {
			return ""
		}
		return "topic status key is not status-topic-<topic>:connector-<connector>: " + strconv.Quote(string(key))
	}
	id := [2]string{keyConnector, keyTopic}
	if value == nil {
		delete(st.topics, id)
		return ""
	}
	ts, reason := parseTopicStatusValue(value)
	if reason != "" {
		return reason
	}
	st.topics[id] = &topicStatusEntry{keyConnector: keyConnector, keyTopic: keyTopic, value: ts}
	if ts.Connector != keyConnector || ts.Topic != keyTopic {
		return "topic status value names topic " + strconv.Quote(ts.Topic) + " of connector " +
			strconv.Quote(ts.Connector) + " but its key names topic " + strconv.Quote(keyTopic) +
			" of connector " + strconv.Quote(keyConnector) + " (filed under the key, as Kafka does)"
	}
	return ""
}

// parseStatusTopicKey follows Kafka: the topic runs from the prefix to the
// first ':'; the connector starts 11 UTF-16 units (":connector-") after that
// ':', whatever those units are.
func parseStatusTopicKey(key string) (topic, connector string, ok bool) {
	rest := key[len(prefixStatusTopic):]
	colon := -1
	for i := 0; i < len(rest); i++ {
		if rest[i] == ':' {
			colon = i
			break
		}
	}
	if colon <= 0 {
		return "", "", false
	}
	topic = rest[:colon]
	after := rest[colon:]
	units := 0
	for j, r := range after {
		if units >= len(":connector-") {
			if units > len(":connector-") {
				// Java cut a surrogate pair in half; the lone low surrogate
				// becomes U+FFFD when the key is printed as UTF-8.
				return topic, "\uFFFD" + after[j:], true
			}
			return topic, after[j:], after[j:] != ""
		}
		if r > 0xFFFF {
			units += 2
		} else {
			units++
		}
	}
	if units > len(":connector-") {
		return topic, "\uFFFD", true
	}
	return "", "", false
}

func parseTopicStatusValue(value []byte) (TopicStatus, string) {
	if ts, ok := scanTopicStatusValue(value); ok {
		return ts, ""
	}
	return parseTopicStatusValueSlow(value)
}

func parseTopicStatusValueSlow(value []byte) (TopicStatus, string) {
	var ts TopicStatus
	m, reason := jsonObject(value)
	if reason != "" {
		return ts, reason
	}
	raw, ok := m["topic"]
	if !ok || firstJSONByte(raw) != '{' {
		return ts, "topic status has no \"topic\" object"
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(raw, &inner); err != nil {
		return ts, "topic status has no \"topic\" object: " + err.Error()
	}
	if ts.Topic, ok = jsonText(inner["name"]); !ok {
		return ts, "topic status has no string \"name\""
	}
	if ts.Connector, ok = jsonText(inner["connector"]); !ok {
		return ts, "topic status has no string \"connector\""
	}
	task, ok := jsonLong(inner["task"])
	if !ok {
		return ts, "topic status has no integer \"task\""
	}
	ts.Task = javaInt(task)
	if ts.DiscoverTimestampMs, ok = jsonLong(inner["discoverTimestamp"]); !ok {
		return ts, "topic status has no integer \"discoverTimestamp\""
	}
	return ts, ""
}

// statusText turns a raw JSON string token into a string (nil for null).
func statusText(tok []byte) *string {
	if tok == nil {
		return nil
	}
	var s string
	if bytes.IndexByte(tok, '\\') < 0 && len(tok) >= 2 {
		s = string(tok[1 : len(tok)-1])
	} else if err := json.Unmarshal(tok, &s); err != nil {
		return nil
	}
	return &s
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
			res.Connectors = append(res.Connectors, ConnectorStatus{
				Name: name, State: statusStateNames[e.status.state], WorkerID: statusText(e.status.worker),
				Generation: e.status.generation, Trace: redact.Trace(statusText(e.status.trace), opts.ShowSecrets),
			})
		}
		e.tasks.each(func(n int32, t *statusValue) {
			res.Tasks = append(res.Tasks, TaskStatus{
				ID: protocol.TaskRef{Connector: name, Task: n}.String(), Connector: name, Task: n,
				State: statusStateNames[t.state], WorkerID: statusText(t.worker),
				Generation: t.generation, Trace: redact.Trace(statusText(t.trace), opts.ShowSecrets),
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

// scanTopicStatusValue is the allocation-light fast path of
// parseTopicStatusValue for the shape Connect writes:
// {"topic":{"name":…,"connector":…,"task":N,"discoverTimestamp":N}}. It
// reports false for anything unusual (escapes, non-ASCII, nested values,
// duplicate or missing members), which the slow path then explains.
func scanTopicStatusValue(b []byte) (TopicStatus, bool) {
	var ts TopicStatus
	i := jsonscan.Space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ts, false
	}
	i = jsonscan.Space(b, i+1)
	sawTopic := false
	for {
		name, next, ok := jsonscan.MemberName(b, i)
		if !ok {
			return ts, false
		}
		i = next
		if string(name) == "topic" {
			if sawTopic {
				return ts, false
			}
			if i, ok = scanTopicInner(b, i, &ts); !ok {
				return ts, false
			}
			sawTopic = true
		} else {
			if _, i, ok = jsonscan.Scalar(b, i); !ok {
				return ts, false
			}
		}
		next, more, ok := jsonscan.NextMember(b, i)
		if !ok {
			return ts, false
		}
		i = next
		if !more {
			break
		}
	}
	return ts, sawTopic && jsonscan.Space(b, i+1) == len(b)
}

func scanTopicInner(b []byte, i int, ts *TopicStatus) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = jsonscan.Space(b, i+1)
	var seen [4]bool
	for {
		name, next, ok := jsonscan.MemberName(b, i)
		if !ok {
			return 0, false
		}
		kind, end, ok := jsonscan.Scalar(b, next)
		if !ok {
			return 0, false
		}
		tok := b[next:end]
		field := -1
		switch string(name) {
		case "name":
			field = 0
		case "connector":
			field = 1
		case "task":
			field = 2
		case "discoverTimestamp":
			field = 3
		}
		if field >= 0 {
			if seen[field] {
				return 0, false
			}
			seen[field] = true
			switch field {
			case 0, 1:
				if kind != jsonscan.KindString || !plainASCII(tok) {
					return 0, false
				}
				if field == 0 {
					ts.Topic = string(tok[1 : len(tok)-1])
				} else {
					ts.Connector = string(tok[1 : len(tok)-1])
				}
			case 2, 3:
				if kind != jsonscan.KindInteger {
					return 0, false
				}
				n, ok := integerToken(tok)
				if !ok {
					return 0, false
				}
				if field == 2 {
					ts.Task = javaInt(n)
				} else {
					ts.DiscoverTimestampMs = n
				}
			}
		}
		next, more, ok := jsonscan.NextMember(b, end)
		if !ok {
			return 0, false
		}
		i = next
		if !more {
			break
		}
	}
	return i + 1, seen[0] && seen[1] && seen[2] && seen[3]
}

// plainASCII reports whether a string token has no escapes and no byte
// outside ASCII, so its text is its bytes.
func plainASCII(tok []byte) bool {
	for _, c := range tok {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
