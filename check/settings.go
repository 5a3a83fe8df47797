package check

import (
	"strconv"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// numericSetting is a numeric Kafka setting with its Java type and default.
type numericSetting struct {
	Key  string
	Bits int // 32 = Java int, 64 = Java long
	// Default returns Kafka's default for a version (unknown = current); ok
	// false when the setting has no default (null).
	Default func(v kafkaversion.Version) (int64, bool)
}

func always(n int64) func(kafkaversion.Version) (int64, bool) {
	return func(kafkaversion.Version) (int64, bool) { return n, true }
}

// before is a default that changed: old for known versions older than
// release, then what later gives.
func before(release kafkaversion.Version, old int64, later func(kafkaversion.Version) (int64, bool)) func(kafkaversion.Version) (int64, bool) {
	return func(v kafkaversion.Version) (int64, bool) {
		if v.Known && v.Less(release) {
			return old, true
		}
		return later(v)
	}
}

// noDefault is a setting's default when Kafka's is null.
func noDefault(kafkaversion.Version) (int64, bool) { return 0, false }

// workerNumeric are the worker's own (top-level) settings the checks read
// (configs.md §1).
var workerNumeric = []numericSetting{
	{"session.timeout.ms", 32, before(ver(0, 10, 1), 30000, always(10000))},
	{"heartbeat.interval.ms", 32, always(3000)},
	{"rebalance.timeout.ms", 32, always(60000)},
	{"scheduled.rebalance.max.delay.ms", 32, always(300000)},
	{"worker.sync.timeout.ms", 32, always(3000)},
	{"worker.unsync.backoff.ms", 32, always(300000)},
	{"task.shutdown.graceful.timeout.ms", 64, always(5000)},
	{"offset.flush.interval.ms", 64, always(60000)},
	{"offset.flush.timeout.ms", 64, always(5000)},
	{"request.timeout.ms", 32, always(40000)},
	{"connections.max.idle.ms", 64, always(540000)},
	{"inter.worker.key.ttl.ms", 32, always(3600000)},
	{"inter.worker.key.size", 32, noDefault},
	{"transaction.timeout.ms", 32, always(60000)},
	{"config.storage.replication.factor", 16, always(3)},
	{"offset.storage.partitions", 32, always(25)},
	{"offset.storage.replication.factor", 16, always(3)},
	{"status.storage.partitions", 32, always(5)},
	{"status.storage.replication.factor", 16, always(3)},
}

// consumerNumeric are sink-task consumer settings (configs.md §2), read from
// the worker's consumer.* and a connector's consumer.override.*.
var consumerNumeric = []numericSetting{
	{"session.timeout.ms", 32, before(ver(3, 0, 0), 10000, always(45000))},
	{"heartbeat.interval.ms", 32, always(3000)},
	{"max.poll.interval.ms", 32, always(300000)},
	{"request.timeout.ms", 32, always(30000)},
}

// producerNumeric are the EOS producer settings (configs.md §3).
var producerNumeric = []numericSetting{
	{"transaction.timeout.ms", 32, always(60000)},
}

// brokerNumeric are the broker settings of configs.md §4.
var brokerNumeric = []numericSetting{
	{"group.min.session.timeout.ms", 32, always(6000)},
	{"group.max.session.timeout.ms", 32, before(ver(0, 10, 0), 30000, before(ver(2, 3, 0), 300000, always(1800000)))},
	{"group.initial.rebalance.delay.ms", 32, always(3000)},
	{"group.max.size", 32, always(2147483647)},
	{"transaction.max.timeout.ms", 32, always(900000)},
	{"connections.max.idle.ms", 64, always(600000)},
}

func lookup(list []numericSetting, key string) numericSetting {
	for _, s := range list {
		if s.Key == key {
			return s
		}
	}
	return numericSetting{Key: key, Bits: 64, Default: noDefault}
}

// Value is an effective numeric setting and where it came from.
type Value struct {
	N       int64
	Set     bool   // false: nothing known (no default either)
	Default bool   // Java default: no file set it
	Source  string // file name, connector name, "broker" or "default"
	Invalid bool   // set to a value Kafka rejects (reported as T11)
}

// workerValue returns a worker's effective top-level setting.
func workerValue(w *workerconfig.Config, key string, v kafkaversion.Version) Value {
	return prefixedValue(w, "", lookup(workerNumeric, key), v)
}

func prefixedValue(w *workerconfig.Config, prefix string, s numericSetting, v kafkaversion.Version) Value {
	if raw, ok := w.Props[prefix+s.Key]; ok {
		n, reason := workerconfig.ParseJavaInt(raw, bitsOf(s))
		if reason != "" || (s.Bits == 16 && (n < -32768 || n > 32767)) {
			return Value{Invalid: true, Source: w.Name()}
		}
		return Value{N: n, Set: true, Source: w.Name()}
	}
	if d, ok := s.Default(v); ok {
		return Value{N: d, Set: true, Default: true, Source: "default"}
	}
	return Value{Default: true, Source: "default"}
}

func bitsOf(s numericSetting) int {
	if s.Bits == 16 {
		return 32
	}
	return s.Bits
}

// brokerValue returns a broker setting from what was read live, else Kafka's default.
func brokerValue(broker map[string]string, key string, v kafkaversion.Version) Value {
	s := lookup(brokerNumeric, key)
	if raw, ok := broker[key]; ok && raw != "" {
		if n, reason := workerconfig.ParseJavaInt(raw, bitsOf(s)); reason == "" {
			return Value{N: n, Set: true, Source: "broker"}
		}
	}
	d, _ := s.Default(v)
	return Value{N: d, Set: true, Default: true, Source: "default"}
}

// overrideValue layers a connector's consumer.override.* / producer.override.*
// over the worker's value.
func overrideValue(base Value, cfg map[string]string, key, connector string) Value {
	raw, ok := cfg[key]
	if !ok {
		return base
	}
	n, reason := workerconfig.ParseJavaInt(raw, 32)
	if reason != "" {
		return Value{Invalid: true, Source: connector}
	}
	return Value{N: n, Set: true, Source: "connector " + connector}
}

// show renders a value for tables: the number, marked when a default.
func (v Value) show() string {
	switch {
	case v.Invalid:
		return "invalid"
	case !v.Set:
		return "-"
	case v.Default:
		return strconv.FormatInt(v.N, 10) + " (default)"
	}
	return strconv.FormatInt(v.N, 10)
}
