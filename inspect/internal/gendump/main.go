// Command gendump writes a `kcat -J` style dump of a Connect status topic for
// the benchmarks in BENCHMARKS.md:
//
//	go run ./inspect/internal/gendump -records 1000000 > dump.jsonl
//
// The records look like the ones KafkaStatusBackingStore writes (see
// ../shared/vectors/records/status-*.json): connector, task and topic status,
// some FAILED with a stack trace, a few tombstones of deleted connectors.
// Keys repeat many times over rebalances of several workers and rising
// generations, so keeping only the latest record per key is real work. The
// output depends only on the flags (fixed seed).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

type options struct {
	records    int
	connectors int
	tasks      int
	workers    int
	partitions int
	seed       uint64
	topic      string
}

func main() {
	var o options
	flag.IntVar(&o.records, "records", 1000000, "records to write")
	flag.IntVar(&o.connectors, "connectors", 2000, "connectors (each has a status, tasks and topic records)")
	flag.IntVar(&o.tasks, "tasks", 10, "tasks per connector")
	flag.IntVar(&o.workers, "workers", 30, "workers that statuses name")
	flag.IntVar(&o.partitions, "partitions", 5, "status topic partitions")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.StringVar(&o.topic, "topic", "connect-status", "topic name written in every envelope")
	flag.Parse()
	if o.records < 0 || o.connectors < 1 || o.tasks < 1 || o.workers < 1 || o.partitions < 1 {
		fmt.Fprintln(os.Stderr, "gendump: records must be >= 0; connectors, tasks, workers, partitions >= 1")
		os.Exit(2)
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := generate(out, o); err != nil {
		fmt.Fprintln(os.Stderr, "gendump:", err)
		os.Exit(1)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gendump:", err)
		os.Exit(1)
	}
}

// Name parts for connector names like "orders-jdbc-sink-0042".
var (
	subjects = []string{"orders", "payments", "inventory", "customers", "shipments", "clickstream", "audit-log", "billing"}
	kinds    = []string{"jdbc-sink", "s3-sink", "debezium-postgres", "elasticsearch-sink", "mirror-source", "http-source"}
)

// trace is a stack trace like Connect stores for a FAILED status: quotes,
// tabs, newlines and non-ASCII text all need escaping in the envelope.
const trace = "org.apache.kafka.connect.errors.ConnectException: Failed to connect to \"db\"\n" +
	"\tat com.example.Source.start(Source.java:42)\n" +
	"\tat org.apache.kafka.connect.runtime.WorkerConnector.doStart(WorkerConnector.java:190)\n" +
	"\tat org.apache.kafka.connect.runtime.WorkerConnector.doTransitionTo(WorkerConnector.java:375)\n" +
	"Caused by: java.net.ConnectException: Connection refused (Verbindung abgelehnt – ü)\n"

func generate(out *bufio.Writer, o options) error {
	rng := rand.New(rand.NewPCG(o.seed, 0x636f6e6e656374))
	names := make([]string, o.connectors)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%s-%04d", subjects[i%len(subjects)], kinds[(i/len(subjects))%len(kinds)], i)
	}
	workers := make([]string, o.workers)
	for i := range workers {
		workers[i] = fmt.Sprintf("10.0.%d.%d:8083", i/250, i%250+1)
	}
	offsets := make([]int64, o.partitions)
	ts := int64(1700000000000)
	generation := 1
	// A rebalance every ~records/200 records moves work and bumps the generation.
	rebalanceEvery := max(o.records/200, 1)
	var line, key, value []byte
	for n := 0; n < o.records; n++ {
		if n > 0 && n%rebalanceEvery == 0 {
			generation++
		}
		ts += int64(rng.IntN(5))
		c := rng.IntN(o.connectors)
		key = key[:0]
		value = value[:0]
		tombstone := false
		switch r := rng.IntN(100); {
		case r < 15: // connector status
			key = append(append(key, "status-connector-"...), names[c]...)
			value = appendStatus(value, rng, workers, generation)
		case r < 92: // task status
			key = append(append(key, "status-task-"...), names[c]...)
			key = append(key, '-')
			key = strconv.AppendInt(key, int64(rng.IntN(o.tasks)), 10)
			value = appendStatus(value, rng, workers, generation)
		case r < 99: // topic in use by a task
			topic := subjects[c%len(subjects)]
			key = append(append(key, "status-topic-"...), topic...)
			key = append(append(key, ":connector-"...), names[c]...)
			value = append(value, `{"topic":{"name":"`...)
			value = append(value, topic...)
			value = append(value, `","connector":"`...)
			value = append(value, names[c]...)
			value = append(value, `","task":`...)
			value = strconv.AppendInt(value, int64(rng.IntN(o.tasks)), 10)
			value = append(value, `,"discoverTimestamp":`...)
			value = strconv.AppendInt(value, ts, 10)
			value = append(value, '}', '}')
		default: // a deleted connector's status
			key = append(append(key, "status-connector-"...), names[c]...)
			tombstone = true
		}
		p := int(hashKey(key) % uint32(o.partitions))
		line = appendEnvelope(line[:0], o.topic, p, offsets[p], ts, key, value, tombstone)
		offsets[p]++
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// appendStatus appends a status value as Connect's JsonConverter writes it.
func appendStatus(b []byte, rng *rand.Rand, workers []string, generation int) []byte {
	state, withTrace := "RUNNING", false
	switch r := rng.IntN(100); {
	case r < 2:
		state, withTrace = "FAILED", true
	case r < 4:
		state = "PAUSED"
	case r < 10:
		state = "UNASSIGNED"
	case r < 12:
		state = "RESTARTING"
	}
	b = append(b, `{"state":"`...)
	b = append(b, state...)
	b = append(b, `","trace":`...)
	if withTrace {
		b = appendJSONString(b, trace)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"worker_id":"`...)
	b = append(b, workers[rng.IntN(len(workers))]...)
	b = append(b, `","generation":`...)
	b = strconv.AppendInt(b, int64(generation), 10)
	return append(b, '}')
}

// appendEnvelope appends one kcat -J line.
func appendEnvelope(b []byte, topic string, partition int, offset, ts int64, key, value []byte, tombstone bool) []byte {
	b = append(b, `{"topic":`...)
	b = appendJSONString(b, topic)
	b = append(b, `,"partition":`...)
	b = strconv.AppendInt(b, int64(partition), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, offset, 10)
	b = append(b, `,"tstype":"create","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"broker":0,"key":`...)
	b = appendJSONString(b, string(key))
	b = append(b, `,"payload":`...)
	if tombstone {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, string(value))
	}
	return append(b, '}', '\n')
}

// appendJSONString appends s as a JSON string; non-ASCII text stays UTF-8,
// as kcat prints it.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// hashKey picks a partition the way a keyed producer spreads keys: any
// stable hash will do for a benchmark (FNV-1a).
func hashKey(k []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range k {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}
