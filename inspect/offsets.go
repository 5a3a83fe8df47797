package inspect

import (
	"bytes"
	"encoding/json"
	"sort"
)

// OffsetsResult is the `inspect offsets` model (json-output.md): the source
// offsets Connect's worker-global offset store holds.
type OffsetsResult struct {
	Topic    string         `json:"topic"`
	Offsets  []SourceOffset `json:"offsets"`
	Records  RecordCounts   `json:"records"`
	Problems []Problem      `json:"problems"`
}

// SourceOffset is the latest offset stored for one exact key. Partition and
// Offset are the JSON the connector wrote (key order kept).
type SourceOffset struct {
	Connector      string          `json:"connector"`
	Partition      json.RawMessage `json:"partition"`
	Offset         json.RawMessage `json:"offset"`
	KafkaPartition int32           `json:"kafka_partition"`
	KafkaOffset    int64           `json:"kafka_offset"`

	canonical string // partition as canonical JSON: sorted keys, compact
	key       string // exact key bytes: two spellings of one map are two entries
}

// DecodeOffsets replays offsets-topic records in the order given: the last
// write per exact key bytes wins and a tombstone removes the key.
// opts.Connector keeps only that connector's offsets.
func DecodeOffsets(records []Record, opts DecodeOptions) *OffsetsResult {
	d := NewOffsetsDecoder(opts)
	for _, r := range records {
		d.Add(r)
	}
	return d.Result()
}

// OffsetsDecoder decodes an offsets topic one record at a time, for readers
// that stream. It keeps references into the Key and Value of records still
// held: callers must not reuse those byte slices.
type OffsetsDecoder struct {
	opts  DecodeOptions
	held  map[string]*SourceOffset
	res   OffsetsResult
	topic string
}

// NewOffsetsDecoder starts an empty offsets replay.
func NewOffsetsDecoder(opts DecodeOptions) *OffsetsDecoder {
	return &OffsetsDecoder{opts: opts, held: map[string]*SourceOffset{}, res: OffsetsResult{Problems: []Problem{}}}
}

// Add applies the next record in log order.
func (d *OffsetsDecoder) Add(r Record) {
	if d.res.Records.Read == 0 {
		d.topic = r.Topic
	}
	d.res.Records.Read++
	reason := applyOffsetRecord(d.held, r)
	switch {
	case r.Value == nil: // a tombstone whatever its key
		d.res.Records.Tombstones++
	case reason != "":
		d.res.Records.Problems++
		d.res.Problems = append(d.res.Problems, recRecordProblem(r, reason))
	default:
		d.res.Records.Decoded++
	}
}

// Result renders the offsets held so far, sorted by connector, then the
// partition's canonical JSON, then the exact key bytes.
func (d *OffsetsDecoder) Result() *OffsetsResult {
	res := d.res
	res.Problems = append([]Problem{}, d.res.Problems...)
	res.Topic = d.opts.Topic
	if res.Topic == "" {
		res.Topic = d.topic
	}
	if res.Topic == "" {
		res.Topic = DefaultTopicNames().Offset
	}
	res.Offsets = make([]SourceOffset, 0, len(d.held))
	for _, o := range d.held {
		if d.opts.Connector == "" || d.opts.Connector == o.Connector {
			o.canonical = canonicalJSON(o.Partition)
			res.Offsets = append(res.Offsets, *o)
		}
	}
	sort.Slice(res.Offsets, func(i, j int) bool {
		a, b := &res.Offsets[i], &res.Offsets[j]
		if a.Connector != b.Connector {
			return a.Connector < b.Connector
		}
		if a.canonical != b.canonical {
			return a.canonical < b.canonical
		}
		return a.key < b.key
	})
	return &res
}

func applyOffsetRecord(held map[string]*SourceOffset, r Record) string {
	if r.Key == nil {
		return "record has no key"
	}
	if r.Value == nil {
		delete(held, string(r.Key))
		return ""
	}
	connector, partition, reason := parseOffsetKey(r.Key)
	if reason != "" {
		return reason
	}
	if !json.Valid(r.Value) {
		return "offset value is not JSON"
	}
	if recFirstJSONByte(r.Value) != '{' {
		return "offset value is not a JSON object"
	}
	held[string(r.Key)] = &SourceOffset{
		Connector:      connector,
		Partition:      partition,
		Offset:         json.RawMessage(bytes.TrimSpace(r.Value)),
		KafkaPartition: r.Partition,
		KafkaOffset:    r.Offset,
		key:            string(r.Key),
	}
	return ""
}

// parseOffsetKey checks the key is ["connector", {partition}].
func parseOffsetKey(key []byte) (string, json.RawMessage, string) {
	if !json.Valid(key) {
		return "", nil, "offset key is not JSON"
	}
	var parts []json.RawMessage
	if recFirstJSONByte(key) != '[' || json.Unmarshal(key, &parts) != nil || len(parts) != 2 {
		return "", nil, "offset key is not a [connector, partition] array"
	}
	connector, ok := recJSONText(parts[0])
	if !ok {
		return "", nil, "offset key does not start with a connector name string"
	}
	if recFirstJSONByte(parts[1]) != '{' {
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
