// Package inspect is connectscope's model of what was read about one Connect
// cluster: the Dataset (records of the internal topics, the group
// description, sink groups, topic descriptions), Record and Problem, and the
// group states. Decoding lives in the sub-packages: protocol (group
// protocol bytes), store (the config, status and offsets topics), group
// (members, sinks, watch events), source (files) and live (a cluster).
package inspect

import (
	"cmp"
	"encoding/json"
)

// Record is one record of a Kafka topic as connectscope reads it, whatever the
// source (kcat dump, snapshot file, live broker).
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp int64  // milliseconds since the epoch; 0 when unknown
	Key       []byte // nil for a null key
	Value     []byte // nil for a tombstone
}

// Problem is a record that did not decode. It is reported, counted and
// skipped; decoding goes on with the next record. What is not known (a dump
// line that is not even a record envelope) is written as JSON null: an empty
// topic, a negative partition or offset, an empty key.
type Problem struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       string
	// HasKey says the record had a key, so an empty Key is "" and not null
	// in the JSON form.
	HasKey bool
	Reason string
}

// problemJSON is the JSON shape of a Problem (json-output.md).
type problemJSON struct {
	Topic     *string `json:"topic"`
	Partition *int32  `json:"partition"`
	Offset    *int64  `json:"offset"`
	Key       *string `json:"key"`
	Reason    string  `json:"reason"`
}

// MarshalJSON writes unknown fields as null, never as made-up values.
func (p Problem) MarshalJSON() ([]byte, error) {
	out := problemJSON{Reason: p.Reason}
	if p.Topic != "" {
		out.Topic = &p.Topic
	}
	if p.Partition >= 0 {
		out.Partition = &p.Partition
	}
	if p.Offset >= 0 {
		out.Offset = &p.Offset
	}
	if p.Key != "" || p.HasKey {
		out.Key = &p.Key
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes (snapshot files keep problems).
func (p *Problem) UnmarshalJSON(b []byte) error {
	var in problemJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*p = Problem{Partition: -1, Offset: -1, Reason: in.Reason}
	if in.Topic != nil {
		p.Topic = *in.Topic
	}
	if in.Partition != nil {
		p.Partition = *in.Partition
	}
	if in.Offset != nil {
		p.Offset = *in.Offset
	}
	if in.Key != nil {
		p.Key, p.HasKey = *in.Key, true
	}
	return nil
}

// RecordCounts reconciles what was read: Read == Decoded + Tombstones + Problems.
type RecordCounts struct {
	Read       int `json:"read"`
	Decoded    int `json:"decoded"`
	Tombstones int `json:"tombstones"`
	Problems   int `json:"problems"`
}

// TopicNames are the three internal topics of one Connect cluster.
type TopicNames struct {
	Config string
	Offset string
	Status string
}

// Or is t with each name it leaves empty taken from def.
func (t TopicNames) Or(def TopicNames) TopicNames {
	return TopicNames{Config: cmp.Or(t.Config, def.Config), Offset: cmp.Or(t.Offset, def.Offset), Status: cmp.Or(t.Status, def.Status)}
}

// DefaultTopicNames are Connect's documented defaults for a distributed worker.
func DefaultTopicNames() TopicNames {
	return TopicNames{Config: "connect-configs", Offset: "connect-offsets", Status: "connect-status"}
}
