package source

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// exampleWorker is one of the example cluster's Connect workers.
type exampleWorker struct {
	id       string // advertised host:port = status worker_id
	memberID string
	owned    []string // connector names
	tasks    []protocol.TaskRef
}

func (w exampleWorker) url() string { return "http://" + w.id + "/" }

// exampleBuilder appends records to the three topics in story order.
type exampleBuilder struct {
	d      *inspect.Dataset
	now    int64
	next   map[string]map[int32]int64
	counts map[string]int32
}

func (b *exampleBuilder) add(topic string, key, value string, tombstone bool) {
	b.now += 1500 + int64(len(b.d.Records)%7)*311
	part := int32(0)
	if n := b.counts[topic]; n > 1 {
		part = murmur2Partition([]byte(key), n)
	}
	if b.next[topic] == nil {
		b.next[topic] = map[int32]int64{}
	}
	off := b.next[topic][part]
	b.next[topic][part] = off + 1
	rec := inspect.Record{Topic: topic, Partition: part, Offset: off, Timestamp: b.now, Key: []byte(key)}
	if !tombstone {
		rec.Value = []byte(value)
	}
	b.d.Records = append(b.d.Records, rec)
}

func (b *exampleBuilder) config(key, value string) { b.add(b.d.Topics.Config, key, value, false) }
func (b *exampleBuilder) status(key, value string) { b.add(b.d.Topics.Status, key, value, false) }
func (b *exampleBuilder) offset(key, value string) { b.add(b.d.Topics.Offset, key, value, false) }

// exKV is one JSON object member; jsonObject keeps the order given, as
// Connect's JsonConverter writes struct fields and map entries.
type exKV struct {
	k string
	v any
}

func exObject(members ...exKV) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(exText(m.k))
		sb.WriteByte(':')
		switch v := m.v.(type) {
		case exRaw:
			sb.WriteString(string(v))
		default:
			sb.WriteString(exText(v))
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

type exRaw string

// exText encodes like Jackson for the characters used here: no HTML escaping.
func exText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only fixed example values reach here
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func exProperties(pairs ...string) string {
	members := make([]exKV, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		members = append(members, exKV{pairs[i], pairs[i+1]})
	}
	return exObject(exKV{"properties", exRaw(exObject(members...))})
}

func exStatus(state string, trace any, worker string, generation int) string {
	return exObject(exKV{"state", state}, exKV{"trace", trace}, exKV{"worker_id", worker}, exKV{"generation", generation})
}

const exampleTrace = "org.apache.kafka.connect.errors.ConnectException: An exception occurred in the change event producer. This connector will be stopped.\n" +
	"\tat io.debezium.pipeline.ErrorHandler.setProducerThrowable(ErrorHandler.java:67)\n" +
	"\tat io.debezium.connector.postgresql.PostgresStreamingChangeEventSource.execute(PostgresStreamingChangeEventSource.java:181)\n" +
	"\tat io.debezium.pipeline.ChangeEventSourceCoordinator.streamEvents(ChangeEventSourceCoordinator.java:272)\n" +
	"\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)\n" +
	"\tat java.base/java.lang.Thread.run(Thread.java:840)\n" +
	"Caused by: org.postgresql.util.PSQLException: ERROR: replication slot \"debezium_inventory\" is active for PID 48213\n" +
	"\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2713)\n" +
	"\tat org.postgresql.core.v3.replication.V3ReplicationProtocol.startPhysicalReplication(V3ReplicationProtocol.java:121)\n" +
	"\t... 8 more\n"

// buildExampleCluster tells the story of a 3-worker sessioned cluster and
// returns it as a dataset: config, offsets and status records, the Connect
// group (bytes made by our encoder) and the sink connectors' groups.
func buildExampleCluster() (*inspect.Dataset, error) {
	d := &inspect.Dataset{
		Source:    "kafka:kafka-1.prod.example.internal:9092",
		TakenAtMs: 1764403200000, // 2025-11-29T08:00:00Z
		Topics:    inspect.DefaultTopicNames(),
		Isolation: "read_uncommitted",
		// The internal topics as a production cluster creates them, and the
		// broker's group settings, so the topic and timeout checks can run
		// on the example.
		TopicDescriptions: []inspect.TopicDescription{
			{Name: "connect-configs", Exists: true, Partitions: 1, ReplicationFactor: 3,
				Configs: map[string]string{"cleanup.policy": "compact", "min.insync.replicas": "2"}},
			{Name: "connect-offsets", Exists: true, Partitions: 25, ReplicationFactor: 3,
				Configs: map[string]string{"cleanup.policy": "compact", "min.insync.replicas": "2"}},
			{Name: "connect-status", Exists: true, Partitions: 5, ReplicationFactor: 3,
				Configs: map[string]string{"cleanup.policy": "compact", "min.insync.replicas": "2"}},
		},
		BrokerConfigs: map[string]string{
			"group.min.session.timeout.ms": "6000",
			"group.max.session.timeout.ms": "1800000",
			"transaction.max.timeout.ms":   "900000",
		},
	}
	b := &exampleBuilder{d: d, now: 1764000000000, next: map[string]map[int32]int64{},
		counts: map[string]int32{d.Topics.Config: 1, d.Topics.Offset: 25, d.Topics.Status: 5}}
	w1, w2, w3 := "10.0.1.11:8083", "10.0.1.12:8083", "10.0.1.13:8083"

	b.config("session-key", exObject(exKV{"key", base64.StdEncoding.EncodeToString([]byte("example-session-key-32-bytes!!!!"))},
		exKV{"algorithm", "HmacSHA256"}, exKV{"creation-timestamp", b.now}))

	// JDBC source: two tables, two tasks; its config holds a password.
	jdbc := []string{"connector.class", "io.confluent.connect.jdbc.JdbcSourceConnector", "tasks.max", "2",
		"connection.url", "jdbc:postgresql://orders-db.prod.example.internal:5432/shop",
		"connection.user", "connect_reader", "connection.password", "Tr0ub4dor&3",
		"mode", "incrementing", "incrementing.column.name", "id", "table.whitelist", "orders,order_lines",
		"topic.prefix", "shop.", "poll.interval.ms", "5000", "name", "jdbc-orders-source"}
	b.config("connector-jdbc-orders-source", exProperties(jdbc...))
	for i, table := range []string{"orders", "order_lines"} {
		b.config(fmt.Sprintf("task-jdbc-orders-source-%d", i), exProperties(append(slices.Clone(jdbc),
			"task.class", "io.confluent.connect.jdbc.source.JdbcSourceTask", "tables", "\"shop\".\"public\".\""+table+"\"")...))
	}
	b.config("commit-jdbc-orders-source", `{"tasks":2}`)
	b.status("status-connector-jdbc-orders-source", exStatus("RUNNING", nil, w1, 5))
	b.status("status-task-jdbc-orders-source-0", exStatus("RUNNING", nil, w2, 5))
	b.status("status-task-jdbc-orders-source-1", exStatus("RUNNING", nil, w3, 5))
	ordersKey := `["jdbc-orders-source",{"protocol":"1","table":"shop.public.orders"}]`
	b.offset(ordersKey, `{"incrementing":1200}`)
	b.offset(`["jdbc-orders-source",{"protocol":"1","table":"shop.public.order_lines"}]`, `{"incrementing":190112}`)

	// Debezium-like CDC source; its password is a config-provider reference.
	dbz := []string{"connector.class", "io.debezium.connector.postgresql.PostgresConnector", "tasks.max", "1",
		"database.hostname", "inventory-db.prod.example.internal", "database.port", "5432",
		"database.user", "debezium", "database.password", "${file:/opt/connect/secrets/inventory.properties:password}",
		"database.dbname", "inventory", "topic.prefix", "inventory", "plugin.name", "pgoutput",
		"slot.name", "debezium_inventory", "name", "debezium-inventory"}
	b.config("connector-debezium-inventory", exProperties(dbz...))
	b.config("task-debezium-inventory-0", exProperties(append(slices.Clone(dbz), "task.class", "io.debezium.connector.postgresql.PostgresConnectorTask")...))
	b.config("commit-debezium-inventory", `{"tasks":1}`)
	b.status("status-connector-debezium-inventory", exStatus("RUNNING", nil, w2, 6))
	b.status("status-task-debezium-inventory-0", exStatus("RUNNING", nil, w1, 6))
	dbzKey := `["debezium-inventory",{"server":"inventory"}]`
	b.offset(dbzKey, `{"transaction_id":null,"lsn_proc":2384751624,"messageType":"INSERT","lsn_commit":2384751320,"lsn":2384751624,"txId":771923,"ts_usec":1764001234567890}`)

	// S3 sink, three tasks.
	s3 := []string{"connector.class", "io.confluent.connect.s3.S3SinkConnector", "tasks.max", "3", "topics", "orders",
		"s3.bucket.name", "prod-orders-archive", "s3.region", "eu-west-1", "flush.size", "10000",
		"storage.class", "io.confluent.connect.s3.storage.S3Storage", "format.class", "io.confluent.connect.s3.format.parquet.ParquetFormat",
		"aws.access.key.id", "AKIAEXAMPLEKEY0001", "aws.secret.access.key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "name", "s3-orders-sink"}
	b.config("connector-s3-orders-sink", exProperties(s3...))
	for i := 0; i < 3; i++ {
		b.config(fmt.Sprintf("task-s3-orders-sink-%d", i), exProperties(append(slices.Clone(s3), "task.class", "io.confluent.connect.s3.S3SinkTask")...))
	}
	b.config("commit-s3-orders-sink", `{"tasks":3}`)
	b.status("status-connector-s3-orders-sink", exStatus("RUNNING", nil, w1, 7))
	for i, w := range []string{w1, w2, w3} {
		b.status(fmt.Sprintf("status-task-s3-orders-sink-%d", i), exStatus("RUNNING", nil, w, 7))
	}
	b.status("status-topic-orders:connector-s3-orders-sink", exObject(exKV{"topic", exRaw(exObject(
		exKV{"name", "orders"}, exKV{"connector", "s3-orders-sink"}, exKV{"task", 0}, exKV{"discoverTimestamp", b.now}))}))
	b.offset(ordersKey, `{"incrementing":48211}`)

	// Elasticsearch sink, two tasks, later paused.
	es := []string{"connector.class", "io.confluent.connect.elasticsearch.ElasticsearchSinkConnector", "tasks.max", "2",
		"topics", "orders", "connection.url", "https://search.prod.example.internal:9200",
		"connection.username", "connect", "connection.password", "${vault:secret/data/connect/es:password}",
		"key.ignore", "false", "schema.ignore", "true", "behavior.on.null.values", "delete", "name", "es-orders-sink"}
	b.config("connector-es-orders-sink", exProperties(es...))
	for i := 0; i < 2; i++ {
		b.config(fmt.Sprintf("task-es-orders-sink-%d", i), exProperties(append(slices.Clone(es), "task.class", "io.confluent.connect.elasticsearch.ElasticsearchSinkTask")...))
	}
	b.config("commit-es-orders-sink", `{"tasks":2}`)
	b.status("status-connector-es-orders-sink", exStatus("RUNNING", nil, w2, 8))
	b.status("status-task-es-orders-sink-0", exStatus("RUNNING", nil, w2, 8))
	b.status("status-task-es-orders-sink-1", exStatus("RUNNING", nil, w1, 8))
	b.status("status-topic-orders:connector-es-orders-sink", exObject(exKV{"topic", exRaw(exObject(
		exKV{"name", "orders"}, exKV{"connector", "es-orders-sink"}, exKV{"task", 1}, exKV{"discoverTimestamp", b.now}))}))
	b.config("target-state-es-orders-sink", `{"state":"PAUSED","state.v2":"PAUSED"}`)
	b.status("status-connector-es-orders-sink", exStatus("PAUSED", nil, w2, 8))
	b.status("status-task-es-orders-sink-0", exStatus("PAUSED", nil, w2, 8))
	b.status("status-task-es-orders-sink-1", exStatus("PAUSED", nil, w1, 8))

	// File sink, later stopped: empty task set, then STOPPED.
	file := []string{"connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector", "tasks.max", "1",
		"topics", "audit-log", "file", "/var/log/connect/audit.txt", "name", "file-audit-sink"}
	b.config("connector-file-audit-sink", exProperties(file...))
	b.config("task-file-audit-sink-0", exProperties("task.class", "org.apache.kafka.connect.file.FileStreamSinkTask", "topics", "audit-log", "file", "/var/log/connect/audit.txt"))
	b.config("commit-file-audit-sink", `{"tasks":1}`)
	b.status("status-connector-file-audit-sink", exStatus("RUNNING", nil, w3, 9))
	b.status("status-task-file-audit-sink-0", exStatus("RUNNING", nil, w3, 9))
	b.config("commit-file-audit-sink", `{"tasks":0}`)
	b.config("target-state-file-audit-sink", `{"state":"PAUSED","state.v2":"STOPPED"}`)
	b.status("status-task-file-audit-sink-0", exStatus("UNASSIGNED", nil, w3, 10))
	b.status("status-connector-file-audit-sink", exStatus("STOPPED", nil, w3, 10))

	// Mongo source: one task, then reconfigured to two, but only task 0's
	// config reached the topic before the commit: inconsistent.
	mongo := []string{"connector.class", "com.mongodb.kafka.connect.MongoSourceConnector", "tasks.max", "1",
		"connection.uri", "mongodb://events-rs0.prod.example.internal:27017/?replicaSet=rs0",
		"database", "events", "collection", "clicks", "topic.prefix", "mongo", "name", "mongo-events-source"}
	b.config("connector-mongo-events-source", exProperties(mongo...))
	b.config("task-mongo-events-source-0", exProperties(append(slices.Clone(mongo), "task.class", "com.mongodb.kafka.connect.source.MongoSourceTask")...))
	b.config("commit-mongo-events-source", `{"tasks":1}`)
	b.status("status-connector-mongo-events-source", exStatus("RUNNING", nil, w3, 11))
	b.status("status-task-mongo-events-source-0", exStatus("RUNNING", nil, w3, 11))
	b.offset(`["mongo-events-source",{"ns":"events.clicks"}]`, `{"_id":"{\"_data\": \"8265A1B2C3000000012B022C0100296E5A1004\"}"}`)

	// The Debezium task fails; an operator asks for a restart; it fails again.
	b.status("status-task-debezium-inventory-0", exStatus("FAILED", exampleTrace, w1, 12))
	b.config("restart-connector-debezium-inventory", `{"include-tasks":true,"only-failed":true}`)
	b.status("status-task-debezium-inventory-0", exStatus("RESTARTING", nil, w1, 12))
	b.status("status-task-debezium-inventory-0", exStatus("FAILED", exampleTrace, w1, 12))
	previousOffset := b.next[d.Topics.Config][0]

	mongo[3] = "2"
	b.config("connector-mongo-events-source", exProperties(mongo...))
	b.config("task-mongo-events-source-0", exProperties(append(slices.Clone(mongo), "task.class", "com.mongodb.kafka.connect.source.MongoSourceTask", "pipeline.partition", "0")...))
	b.config("commit-mongo-events-source", `{"tasks":2}`)
	// Generation 13: the inconsistent connector exposes no tasks, so the
	// leader revokes mongo-events-source-0 from w3, which stops it.
	b.status("status-task-mongo-events-source-0", exStatus("UNASSIGNED", nil, w3, 13))
	configOffset := b.next[d.Topics.Config][0]

	d.EndOffsets = map[string]map[int32]int64{}
	for topic, n := range b.counts {
		d.EndOffsets[topic] = map[int32]int64{}
		for p := int32(0); p < n; p++ {
			d.EndOffsets[topic][p] = b.next[topic][p]
		}
	}

	workers := []exampleWorker{
		{id: w1, memberID: "connect-10.0.1.11:8083-3f6b2a1e-8c4d-4a57-9a0e-2b1c5d7e9f10",
			owned: []string{"jdbc-orders-source", "s3-orders-sink"},
			tasks: []protocol.TaskRef{{Connector: "debezium-inventory", Task: 0}, {Connector: "es-orders-sink", Task: 1}, {Connector: "s3-orders-sink", Task: 0}}},
		{id: w2, memberID: "connect-10.0.1.12:8083-a81c0d5b-77e2-4f3a-b6c9-0d4e2f8a1b37",
			owned: []string{"debezium-inventory", "es-orders-sink"},
			tasks: []protocol.TaskRef{{Connector: "es-orders-sink", Task: 0}, {Connector: "jdbc-orders-source", Task: 0}, {Connector: "s3-orders-sink", Task: 1}}},
		{id: w3, memberID: "connect-10.0.1.13:8083-5d2e9b44-1c0f-4e86-8a7d-c3b5f6e01a92",
			owned: []string{"file-audit-sink", "mongo-events-source"},
			tasks: []protocol.TaskRef{{Connector: "jdbc-orders-source", Task: 1}, {Connector: "mongo-events-source", Task: 0}, {Connector: "s3-orders-sink", Task: 2}}},
	}
	leader := workers[0]
	group := &inspect.GroupDescription{Group: "connect-cluster", State: "Stable", ProtocolType: "connect", Protocol: protocol.ProtocolSessioned}
	// The broker lists members in its own order, not sorted.
	for _, i := range []int{1, 0, 2} {
		w := workers[i]
		// The embedded allocation: what the worker held when it joined
		// generation 13, as its generation-12 assignment left it.
		alloc := &protocol.Assignment{Version: 2, Leader: leader.memberID, LeaderURL: leader.url(), ConfigOffset: previousOffset,
			Assigned: protocol.EntriesFor(w.owned, w.tasks), Revoked: []protocol.ConnectorEntry{}}
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: w.url(), ConfigOffset: configOffset, Allocation: alloc})
		if err != nil {
			return nil, err
		}
		// Generation 13's delta: only w3 loses the inconsistent connector's task.
		asg := &protocol.Assignment{Version: 2, Leader: leader.memberID, LeaderURL: leader.url(), ConfigOffset: configOffset,
			Assigned: []protocol.ConnectorEntry{}, Revoked: []protocol.ConnectorEntry{}}
		if w.id == w3 {
			asg.Revoked = protocol.EntriesFor(nil, []protocol.TaskRef{{Connector: "mongo-events-source", Task: 0}})
		}
		asgBytes, err := protocol.EncodeAssignment(asg)
		if err != nil {
			return nil, err
		}
		group.Members = append(group.Members, inspect.GroupMember{MemberID: w.memberID, ClientID: "connect-" + w.id,
			ClientHost: "/" + strings.TrimSuffix(w.id, ":8083"), Metadata: meta, Assignment: asgBytes})
	}
	d.Group = group

	host := func(w string) string { return "/" + strings.TrimSuffix(w, ":8083") }
	d.SinkGroups = []inspect.SinkGroup{
		{Group: "connect-es-orders-sink", Connector: "es-orders-sink", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.SinkMember{
				{MemberID: "connector-consumer-es-orders-sink-0-0b7e4c1d-2f3a-4e5b-9c8d-7a6f5e4d3c2b", ClientID: "connector-consumer-es-orders-sink-0", ClientHost: host(w2),
					Partitions: []inspect.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1, 2}}}},
				{MemberID: "connector-consumer-es-orders-sink-1-6c5d4e3f-8a9b-4c0d-b1e2-f3a4b5c6d7e8", ClientID: "connector-consumer-es-orders-sink-1", ClientHost: host(w1),
					Partitions: []inspect.TopicPartitions{{Topic: "orders", Partitions: []int32{3, 4, 5}}}},
			},
			Offsets: sinkOffsets("orders", []int64{88120, 87342, 90011, 86877, 89540, 88003}, []int64{120551, 119873, 123012, 118930, 121477, 120266})},
		{Group: "connect-file-audit-sink", Connector: "file-audit-sink", State: "Empty", ProtocolType: "consumer", Protocol: "",
			Members: []inspect.SinkMember{},
			Offsets: sinkOffsets("audit-log", []int64{5521}, []int64{5807})},
		{Group: "connect-s3-orders-sink", Connector: "s3-orders-sink", State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []inspect.SinkMember{
				{MemberID: "connector-consumer-s3-orders-sink-0-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", ClientID: "connector-consumer-s3-orders-sink-0", ClientHost: host(w1),
					Partitions: []inspect.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}}},
				{MemberID: "connector-consumer-s3-orders-sink-1-9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", ClientID: "connector-consumer-s3-orders-sink-1", ClientHost: host(w2),
					Partitions: []inspect.TopicPartitions{{Topic: "orders", Partitions: []int32{2, 3}}}},
				{MemberID: "connector-consumer-s3-orders-sink-2-2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f", ClientID: "connector-consumer-s3-orders-sink-2", ClientHost: host(w3),
					Partitions: []inspect.TopicPartitions{{Topic: "orders", Partitions: []int32{4, 5}}}},
			},
			Offsets: sinkOffsets("orders", []int64{120402, 119873, 122990, 118930, 121301, 120266}, []int64{120551, 119873, 123012, 118930, 121477, 120266})},
	}
	return d, nil
}

func sinkOffsets(topic string, committed, end []int64) []inspect.PartitionOffset {
	out := make([]inspect.PartitionOffset, len(committed))
	for i := range committed {
		out[i] = inspect.PartitionOffset{Topic: topic, Partition: int32(i), Committed: committed[i], End: end[i]}
	}
	return out
}

// murmur2Partition is the Java producer's default partition for a keyed
// record: murmur2 of the key bytes, made positive, modulo the partition count.
func murmur2Partition(key []byte, partitions int32) int32 {
	const seed, m, r = uint32(0x9747b28c), uint32(0x5bd1e995), 24
	h := seed ^ uint32(len(key))
	n := len(key) / 4
	for i := 0; i < n; i++ {
		k := uint32(key[4*i]) | uint32(key[4*i+1])<<8 | uint32(key[4*i+2])<<16 | uint32(key[4*i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	tail := key[4*n:]
	switch len(tail) {
	case 3:
		h ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(tail[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h&0x7fffffff) % partitions
}
