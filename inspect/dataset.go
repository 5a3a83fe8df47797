package inspect

// Dataset is everything connectscope read about one Connect cluster, from a
// file or a live cluster. Every inspect view and every plan starts from it.
type Dataset struct {
	Source     string     // what was read: "file:PATH" or "kafka:BOOTSTRAP"
	TakenAtMs  int64      // when reading began (0 when unknown)
	Topics     TopicNames // which topic names hold config, offsets and status
	Isolation  string     // read_committed or read_uncommitted (live reads)
	Records    []Record   // records of the internal topics, in read order
	Problems   []Problem  // input entries that could not even be turned into a Record
	Group      *GroupDescription
	SinkGroups []SinkGroup
	// EndOffsets holds the end offset of each internal-topic partition at the
	// time of reading, when known (topic -> partition -> offset).
	EndOffsets map[string]map[int32]int64
	// TopicDescriptions describe the internal topics (live reads and snapshots
	// taken live); empty when the input was a plain dump.
	TopicDescriptions []TopicDescription
	// BrokerConfigs holds broker settings the checks need (for example
	// group.min.session.timeout.ms), when read live.
	BrokerConfigs map[string]string
}

// TopicDescription is what the topic checks need to know about one topic.
type TopicDescription struct {
	Name              string            `json:"name"`
	Exists            bool              `json:"exists"`
	Partitions        int               `json:"partitions"`
	ReplicationFactor int               `json:"replication_factor"`
	Configs           map[string]string `json:"configs"`
}

// GroupDescription is a DescribeGroups answer for the Connect group, with the
// member metadata and assignment bytes kept raw so our own codecs decode them.
// Members are in the broker's order, the order of the leader's JoinGroup list.
type GroupDescription struct {
	Group        string        `json:"group"`
	State        string        `json:"state"`
	ProtocolType string        `json:"protocol_type"`
	Protocol     string        `json:"protocol"`
	Members      []GroupMember `json:"members"`
	ErrorCode    int16         `json:"error_code"`
	// Other is a consumer, share or streams group holding this id when
	// DescribeGroups found no classic group; absent otherwise.
	Other *OtherGroup `json:"other_group,omitempty"`
}

// GroupMember is one member of a described group.
type GroupMember struct {
	MemberID   string `json:"member_id"`
	InstanceID string `json:"instance_id"`
	ClientID   string `json:"client_id"`
	ClientHost string `json:"client_host"`
	Metadata   []byte `json:"metadata_base64"`
	Assignment []byte `json:"assignment_base64"`
}

// SinkGroup is a sink connector's consumer group with its committed offsets.
type SinkGroup struct {
	Group        string            `json:"group"`
	Connector    string            `json:"connector"`
	State        string            `json:"state"`
	ProtocolType string            `json:"protocol_type"`
	Protocol     string            `json:"protocol"`
	Members      []SinkMember      `json:"members"`
	Offsets      []PartitionOffset `json:"offsets"`
	// Deleted marks the connect-NAME group of a connector the cluster
	// deleted (the internal topics name it, no config holds it) that still
	// exists on the brokers: what a new connector of that name would resume
	// from (check rule K18). The sinks view leaves such groups out.
	Deleted bool `json:"deleted,omitempty"`
}

// SinkMember is one consumer (one sink task) of a sink connector's group.
type SinkMember struct {
	MemberID   string            `json:"member_id"`
	ClientID   string            `json:"client_id"`
	ClientHost string            `json:"client_host"`
	Partitions []TopicPartitions `json:"partitions"`
}

// TopicPartitions lists partitions of one topic.
type TopicPartitions struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

// PartitionOffset is a committed offset and the partition's end offset.
type PartitionOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Committed int64  `json:"committed"`
	End       int64  `json:"end"`
}
