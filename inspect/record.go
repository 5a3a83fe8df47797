// Package inspect decodes what Kafka Connect stores about itself: the group
// protocol bytes, the config, status and offsets topics, snapshot files and
// worker config files, and reads them from live clusters.
package inspect

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
// skipped; decoding goes on with the next record.
type Problem struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Key       string `json:"key"`
	Reason    string `json:"reason"`
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

// DefaultTopicNames are Connect's documented defaults for a distributed worker.
func DefaultTopicNames() TopicNames {
	return TopicNames{Config: "connect-configs", Offset: "connect-offsets", Status: "connect-status"}
}
