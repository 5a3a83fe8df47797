package vectors

// StatusKey is a status-topic key and what Kafka's KafkaStatusBackingStore
// makes of it (worked out by hand from its read, parseConnectorTaskId and
// readTopicStatus: String.split("-"), Integer.parseInt, indexOf(':')), for
// the tests of every package that reads status keys: each runs its own path
// on these keys, so all agree with Kafka and with each other.
type StatusKey struct {
	Key string // the record's key bytes (not always UTF-8)
	// Kind is "connector", "task", "topic" or "" (Kafka discards the
	// record, or the key has an empty connector name, which the JSON
	// contract makes a problem).
	Kind      string
	Connector string // as Kafka decodes it (a malformed byte is U+FFFD)
	Task      int32
	Topic     string
}

// HostileStatusKeys are the keys anyone who can write to the status topic
// may leave there.
var HostileStatusKeys = []StatusKey{
	{Key: "status-connector-a", Kind: "connector", Connector: "a"},
	{Key: "status-connector-", Kind: ""}, // empty name: Kafka discards it
	{Key: "status-connector-a-b-1", Kind: "connector", Connector: "a-b-1"},
	{Key: "status-connector--", Kind: "connector", Connector: "-"},
	{Key: "status-connector-\x1b[2J\r\n", Kind: "connector", Connector: "\x1b[2J\r\n"},
	{Key: "status-connector-\xff\xfe", Kind: "connector", Connector: "\uFFFD\uFFFD"},
	{Key: "status-connector-caf\xc3", Kind: "connector", Connector: "caf\uFFFD"},
	{Key: "status-connectors", Kind: ""},
	{Key: "status-task-a-0", Kind: "task", Connector: "a", Task: 0},
	{Key: "status-task-a-b-1", Kind: "task", Connector: "a-b", Task: 1},
	{Key: "status-task-a-1-", Kind: "task", Connector: "a", Task: 1},     // split drops trailing empty parts
	{Key: "status-task-a-1---", Kind: "task", Connector: "a", Task: 1},   // all of them
	{Key: "status-task-a--1", Kind: "task", Connector: "a-", Task: 1},    // "-1" is never a number: split ate the dash
	{Key: "status-task-a---1-", Kind: "task", Connector: "a--", Task: 1}, // empty parts inside stay
	{Key: "status-task--1", Kind: ""},                                    // Kafka: task 1 of ""; the contract: a problem
	{Key: "status-task---1", Kind: "task", Connector: "-", Task: 1},
	{Key: "status-task-a-+1", Kind: "task", Connector: "a", Task: 1}, // parseInt takes a "+"
	{Key: "status-task-a-+", Kind: ""},
	{Key: "status-task-a-++1", Kind: ""},
	{Key: "status-task-a-007", Kind: "task", Connector: "a", Task: 7},
	{Key: "status-task-a-000000000000000000000007", Kind: "task", Connector: "a", Task: 7},
	{Key: "status-task-a-2147483647", Kind: "task", Connector: "a", Task: 2147483647},
	{Key: "status-task-a-2147483648", Kind: ""}, // over int32
	{Key: "status-task-a-99999999999999999999999", Kind: ""},
	{Key: "status-task-a-1x", Kind: ""},
	{Key: "status-task-a- 1", Kind: ""},
	{Key: "status-task-a-1.0", Kind: ""},
	{Key: "status-task-a-0x1", Kind: ""},
	{Key: "status-task-a-\u0661\u0662", Kind: "task", Connector: "a", Task: 12}, // Arabic-Indic digits: Character.digit
	{Key: "status-task-a-\uff17", Kind: "task", Connector: "a", Task: 7},        // a fullwidth digit
	{Key: "status-task-a-\u00b2", Kind: ""},                                     // superscript two is no decimal digit
	{Key: "status-task-a-\U0001d7cf", Kind: ""},                                 // two UTF-16 units: no digit to Java
	{Key: "status-task-a-1\xff", Kind: ""},                                      // U+FFFD
	{Key: "status-task-\xff-3", Kind: "task", Connector: "\uFFFD", Task: 3},     // decoded name
	{Key: "status-task-\x1b]0;x\x07-2", Kind: "task", Connector: "\x1b]0;x\x07", Task: 2},
	{Key: "status-task-a", Kind: ""},
	{Key: "status-task-1", Kind: ""},
	{Key: "status-task-a-", Kind: ""},
	{Key: "status-task-", Kind: ""},
	{Key: "status-task--", Kind: ""},
	{Key: "status-task-a-1-b", Kind: ""},
	{Key: "status-topic-t:connector-a", Kind: "topic", Topic: "t", Connector: "a"},
	{Key: "status-topic-t:connector-a:b", Kind: "topic", Topic: "t", Connector: "a:b"},
	{Key: "status-topic-t:XXXXXXXXXXa", Kind: "topic", Topic: "t", Connector: "a"}, // the separator is not checked
	{Key: "status-topic-t:connector-", Kind: ""},
	{Key: "status-topic-:connector-a", Kind: ""},
	{Key: "status-topic-t", Kind: ""},
	{Key: "status-topic-t:connector\U0001F600x", Kind: "topic", Topic: "t", Connector: "\uFFFDx"}, // a surrogate pair cut
	{Key: "status-topic-t:connector\U0001F600", Kind: "topic", Topic: "t", Connector: "\uFFFD"},
	{Key: "status-topic-t:conn\u00e9ctor-a", Kind: "topic", Topic: "t", Connector: "a"}, // units, not bytes
	{Key: "status-topic-\xff:connector-\xfe", Kind: "topic", Topic: "\uFFFD", Connector: "\uFFFD"},
	{Key: "status-bogus-a", Kind: ""},
	{Key: "", Kind: ""},
	{Key: "STATUS-connector-a", Kind: ""},
}
