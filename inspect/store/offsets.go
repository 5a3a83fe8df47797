package store

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/inspect"
)

// OffsetsResult is the `inspect offsets` model (json-output.md): the source
// offsets Connect's worker-global offset store holds.
type OffsetsResult struct {
	Topic    string               `json:"topic"`
	Offsets  []SourceOffset       `json:"offsets"`
	Records  inspect.RecordCounts `json:"records"`
	Problems []inspect.Problem    `json:"problems"`
}

// SourceOffset is the latest offset stored for one exact key. Partition and
// Offset are the JSON the connector wrote (key order kept).
type SourceOffset struct {
	Connector      string          `json:"connector"`
	Partition      json.RawMessage `json:"partition"`
	Offset         json.RawMessage `json:"offset"`
	KafkaPartition int32           `json:"kafka_partition"`
	KafkaOffset    int64           `json:"kafka_offset"`
}

// DecodeOffsets replays offsets-topic records in the order given: the last
// write per exact key bytes wins and a tombstone removes the key.
// opts.Connector keeps only that connector's offsets.
func DecodeOffsets(records []inspect.Record, opts DecodeOptions) *OffsetsResult {
	d := NewOffsetsDecoder(opts)
	for _, r := range records {
		d.Add(r)
	}
	return d.Result()
}

// OffsetsDecoder decodes an offsets topic one record at a time, for readers
// that stream. It keeps references into the Key and Value of records still
// held: callers must not reuse those byte slices.
//
// A topic holds many writes per key (a million records of 100,000 keys is
// ordinary), so the work per record is kept to a map lookup without
// allocating and a hand-written validity check of the value; each distinct
// key is parsed once, and canonicalised once, for the survivors only.
type OffsetsDecoder struct {
	opts    DecodeOptions
	index   map[string]int  // exact key bytes -> entry number
	entries [][]offsetEntry // entry n is entries[n/offsetChunk][n%offsetChunk], numbered in order of first appearance
	count   int             // entries
	held    int             // entries holding an offset
	res     OffsetsResult
	topic   string
}

// offsetChunk entries make a chunk, allocated at once: growing one slice
// would copy (and leave as garbage) several times the final table.
const offsetChunk = 4096

// offsetEntry is one distinct key seen and what is stored for it now.
type offsetEntry struct {
	key       string // the exact key bytes: two spellings of one map are two entries
	connector string
	partition json.RawMessage
	reason    string // why the key is not ["connector", {partition}] ("" when it is)

	canonical      string // partition as canonical JSON (sorted keys, compact), once canonicalised
	canonicalised  bool
	held           bool // an offset is stored (not yet removed by a tombstone)
	offset         json.RawMessage
	kafkaPartition int32
	kafkaOffset    int64
}

// NewOffsetsDecoder starts an empty offsets replay.
func NewOffsetsDecoder(opts DecodeOptions) *OffsetsDecoder {
	return &OffsetsDecoder{opts: opts, index: map[string]int{}, res: OffsetsResult{Problems: []inspect.Problem{}}}
}

// Add applies the next record in log order.
func (d *OffsetsDecoder) Add(r inspect.Record) {
	if d.res.Records.Read == 0 {
		d.topic = r.Topic
	}
	d.res.Records.Read++
	// A null or unparseable key is discarded by Kafka as invalid, a
	// tombstone's too: a problem.
	if r.Key == nil {
		d.problem(r, "record has no key")
		return
	}
	i, ok := d.index[string(r.Key)]
	if !ok {
		i = d.newEntry(r.Key)
	}
	e := d.entry(i)
	if e.reason != "" {
		d.problem(r, e.reason)
		return
	}
	if r.Value == nil { // a tombstone of a key Connect could have written
		d.res.Records.Tombstones++
		if e.held {
			e.held, e.offset = false, nil
			d.held--
		}
		return
	}
	offset, reason := offsetValue(r.Value)
	if reason != "" {
		d.problem(r, reason)
		return
	}
	if !e.held {
		d.held++
	}
	e.held, e.offset, e.kafkaPartition, e.kafkaOffset = true, offset, r.Partition, r.Offset
	d.res.Records.Decoded++
}

func (d *OffsetsDecoder) problem(r inspect.Record, reason string) {
	d.res.Records.Problems++
	d.res.Problems = append(d.res.Problems, recordProblem(r, reason))
}

// newEntry parses a key seen for the first time; a bad key keeps its reason
// so its later records are reported without parsing it again.
func (d *OffsetsDecoder) newEntry(key []byte) int {
	last := len(d.entries) - 1
	if last < 0 || len(d.entries[last]) == offsetChunk {
		size := offsetChunk
		if last < 0 {
			size = 16 // most topics are small: let the first chunk grow
		}
		d.entries = append(d.entries, make([]offsetEntry, 0, size))
		last++
	}
	d.entries[last] = append(d.entries[last], offsetEntry{key: string(key)})
	n := d.count
	d.count++
	e := d.entry(n)
	if k, ok := scanOffsetKey(key); ok {
		// The name's bytes are the name: share the key's string.
		e.connector = e.key[k.nameStart:k.nameEnd]
		e.partition = append(json.RawMessage(nil), key[k.partitionStart:k.partitionEnd]...)
	} else {
		e.connector, e.partition, e.reason = parseOffsetKey(key)
	}
	d.index[e.key] = n
	return n
}

func (d *OffsetsDecoder) entry(n int) *offsetEntry {
	return &d.entries[n/offsetChunk][n%offsetChunk]
}

// offsetValue checks an offset value is a JSON object and returns it without
// the white space around it.
func offsetValue(value []byte) (json.RawMessage, string) {
	if !jsonValid(value) {
		return nil, notJSON("offset value", value)
	}
	if firstJSONByte(value) != '{' {
		return nil, "offset value is not a JSON object"
	}
	// Valid JSON has only JSON white space around its value, so this trims
	// exactly what bytes.TrimSpace would.
	start, end := 0, len(value)
	for isJSONSpace(value[start]) {
		start++
	}
	for isJSONSpace(value[end-1]) {
		end--
	}
	return json.RawMessage(value[start:end]), ""
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Result renders the offsets held so far, sorted by connector, then the
// partition's canonical JSON, then the exact key bytes.
func (d *OffsetsDecoder) Result() *OffsetsResult {
	res := d.res
	res.Problems = append([]inspect.Problem{}, d.res.Problems...)
	res.Topic = topicName(d.opts.Topic, d.topic, inspect.DefaultTopicNames().Offset)
	// Sort indexes rather than the wide SourceOffset values.
	order := make([]int, 0, d.held)
	for i := range d.count {
		e := d.entry(i)
		if !e.held || (d.opts.Connector != "" && d.opts.Connector != e.connector) {
			continue
		}
		if !e.canonicalised {
			e.canonical, e.canonicalised = canonicalPartition(e), true
		}
		order = append(order, i)
	}
	slices.SortFunc(order, func(i, j int) int {
		a, b := d.entry(i), d.entry(j)
		if c := strings.Compare(a.connector, b.connector); c != 0 {
			return c
		}
		if c := strings.Compare(a.canonical, b.canonical); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	res.Offsets = make([]SourceOffset, 0, len(order))
	for _, i := range order {
		e := d.entry(i)
		res.Offsets = append(res.Offsets, SourceOffset{
			Connector:      e.connector,
			Partition:      e.partition,
			Offset:         e.offset,
			KafkaPartition: e.kafkaPartition,
			KafkaOffset:    e.kafkaOffset,
		})
	}
	return &res
}

// canonicalPartition is canonicalJSON(e.partition), without re-encoding a
// partition that is already canonical (the usual case): its text is then a
// piece of the key string, so nothing is allocated.
func canonicalPartition(e *offsetEntry) string {
	if isCanonicalJSON(e.partition) {
		if at := strings.Index(e.key, string(e.partition)); at >= 0 {
			return e.key[at : at+len(e.partition)]
		}
		return string(e.partition)
	}
	return canonicalJSON(e.partition)
}

// parseOffsetKey checks the key is ["connector", {partition}].
func parseOffsetKey(key []byte) (string, json.RawMessage, string) {
	if !json.Valid(key) {
		return "", nil, notJSON("offset key", key)
	}
	var parts []json.RawMessage
	if firstJSONByte(key) != '[' || json.Unmarshal(key, &parts) != nil || len(parts) != 2 {
		return "", nil, "offset key is not a [connector, partition] array"
	}
	connector, ok := jsonText(parts[0])
	if !ok {
		return "", nil, "offset key does not start with a connector name string"
	}
	if firstJSONByte(parts[1]) != '{' {
		return "", nil, "offset key's partition is not a JSON object"
	}
	return connector, bytes.TrimSpace(parts[1]), ""
}

// canonicalJSON renders a JSON value with sorted object keys, compact and
// without HTML escaping; numbers keep their text.
func canonicalJSON(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n"))
}
