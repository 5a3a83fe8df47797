package check

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan/cluster"
)

// TimeoutsInput is what `check timeouts` audits.
type TimeoutsInput struct {
	Workers []*workerconfig.Config
	// Broker holds broker settings read live (Dataset.BrokerConfigs); nil
	// means unknown, and Kafka's defaults are assumed.
	Broker map[string]string
	// Connectors are the configured connectors (from the config topic) for
	// per-connector consumer/producer overrides; nil when no dataset.
	Connectors []ConnectorInfo
	// KafkaVersion is --kafka-version; WorkerVersions (file path → version)
	// are what each worker's REST root reported, and win over it.
	KafkaVersion   kafkaversion.Version
	WorkerVersions map[string]kafkaversion.Version
	// RESTFindings are the workers that did not tell their version (U13),
	// reported with the timeouts' findings.
	RESTFindings  []Finding
	RestartTimeMs int64 // --restart-time; 0 = not given
	MaxDowntimeMs int64 // --max-downtime; 0 = not given
	MaxPutTimeMs  int64 // --max-put-time; 0 = not given
	// Cluster is the group's members and connectors as the plans read them
	// (nil without a dataset that holds the group), for rule D7.
	Cluster *cluster.State
	Context context.Context // stops D7's advisor; nil = never
	// TasksPerWorker is the largest number of tasks one worker owns (from the
	// group); 0 = unknown, then 8 (one parallel stop batch) is assumed.
	TasksPerWorker int
}

// ConnectorInfo is a configured connector, flattened to strings.
type ConnectorInfo struct {
	Name   string
	Type   string // source, sink or "" when unknown
	Config map[string]string
}

// TimeoutsReport is the result of `check timeouts`.
type TimeoutsReport struct {
	Verdict
	Workers []WorkerSettings `json:"workers"`
	Broker  []SettingValue   `json:"broker"`
}

// WorkerSettings are one worker file's effective settings.
type WorkerSettings struct {
	File         string         `json:"file"`
	KafkaVersion *string        `json:"kafka_version"`
	Settings     []SettingValue `json:"settings"`
}

// SettingValue is one effective setting; Default says Kafka's default applied.
type SettingValue struct {
	Key     string `json:"key"`
	Value   *int64 `json:"value"`
	Default bool   `json:"default"`
	Invalid bool   `json:"invalid"`
}

func settingValue(key string, v Value) SettingValue {
	sv := SettingValue{Key: key, Default: v.Default, Invalid: v.Invalid}
	if v.Set {
		n := v.N
		sv.Value = &n
	}
	return sv
}

// timeoutKeys are shown in the report's settings, in this order.
var timeoutKeys = []string{
	"session.timeout.ms", "heartbeat.interval.ms", "rebalance.timeout.ms", "scheduled.rebalance.max.delay.ms",
	"worker.sync.timeout.ms", "worker.unsync.backoff.ms", "task.shutdown.graceful.timeout.ms",
	"offset.flush.interval.ms", "offset.flush.timeout.ms", "request.timeout.ms", "connections.max.idle.ms",
	"inter.worker.key.ttl.ms",
}

// Timeouts runs every timing and consistency rule over the worker files.
func Timeouts(in TimeoutsInput) (*TimeoutsReport, error) {
	global := in.KafkaVersion
	var f Findings
	rep := &TimeoutsReport{Workers: []WorkerSettings{}, Broker: []SettingValue{}}
	for _, key := range []string{"group.min.session.timeout.ms", "group.max.session.timeout.ms", "transaction.max.timeout.ms", "connections.max.idle.ms"} {
		rep.Broker = append(rep.Broker, settingValue(key, brokerValue(in.Broker, key, global)))
	}
	versions := map[*workerconfig.Config]kafkaversion.Version{}
	for _, w := range in.Workers {
		v := workerVersion(in, w, global)
		versions[w] = v
		ws := WorkerSettings{File: w.Name(), Settings: []SettingValue{}}
		if v.Known {
			s := v.String()
			ws.KafkaVersion = &s
		}
		for _, key := range timeoutKeys {
			ws.Settings = append(ws.Settings, settingValue(key, workerValue(w, key, v)))
		}
		rep.Workers = append(rep.Workers, ws)
		checkValues(&f, w)
		checkWorkerTiming(&f, in, w, v)
		checkWorkerDelay(&f, in, w, v)
		checkWorkerShutdown(&f, w, v)
		checkSinkConsumers(&f, in, w, v)
		checkTransactions(&f, in, w, v)
		checkIdentity(&f, w)
	}
	checkAcrossWorkers(&f, in.Workers, versions)
	if err := checkDelayAdvice(&f, in, versions); err != nil {
		return nil, err
	}
	sort.SliceStable(rep.Workers, func(i, j int) bool { return rep.Workers[i].File < rep.Workers[j].File })
	found := append(foldFiles(f.List(), workerNames(in.Workers)), in.RESTFindings...)
	SortFindings(found)
	rep.Verdict = verdictOf(found)
	return rep, nil
}

// workerVersion is the version the worker's REST root reported, else --kafka-version.
func workerVersion(in TimeoutsInput, w *workerconfig.Config, global kafkaversion.Version) kafkaversion.Version {
	if v, ok := in.WorkerVersions[w.Path]; ok && v.Known {
		return v
	}
	return global
}

// vals builds a finding's values from key/Value pairs and marks defaults.
func vals(pairs ...any) (map[string]any, []string) {
	m := map[string]any{}
	var defaults []string
	for i := 0; i+1 < len(pairs); i += 2 {
		key, _ := pairs[i].(string)
		switch x := pairs[i+1].(type) {
		case Value:
			m[key] = x.N
			if x.Default {
				defaults = append(defaults, key)
			}
		default:
			m[key] = x
		}
	}
	if defaults == nil {
		defaults = []string{}
	}
	return m, defaults
}

// add records a finding with values built by vals, marking version scope.
func add(f *Findings, id, subject string, v kafkaversion.Version, msg string, pairs ...any) {
	m, defaults := vals(pairs...)
	fd := f.Add(id, subject, msg, m)
	fd.Defaults = defaults
	if r, ok := RuleByID(id); ok && r.AppliesTo != nil && !v.Known {
		s := *r.AppliesTo
		fd.AppliesTo = &s
	}
}

// checkValues reports numeric settings Kafka cannot parse (T11) and enum
// settings with values it rejects (P10).
func checkValues(f *Findings, w *workerconfig.Config) {
	report := func(key string, s numericSetting) {
		raw, ok := w.Props[key]
		if !ok {
			return
		}
		n, reason := workerconfig.ParseJavaInt(raw, bitsOf(s))
		if reason == "" && s.Bits == 16 && (n < -32768 || n > 32767) {
			reason = "out of range for a Java short"
		}
		if reason != "" {
			f.Add("T11", w.Name(), fmt.Sprintf("%s: %s = %q: %s", w.Path, key, raw, reason), map[string]any{key: raw})
		}
	}
	for _, s := range workerNumeric {
		report(s.Key, s)
	}
	for _, s := range consumerNumeric {
		report("consumer."+s.Key, s)
	}
	for _, s := range producerNumeric {
		report("producer."+s.Key, s)
	}
	checkChoice(f, w, "connect.protocol", w.ConnectProtocol, "eager", "compatible", "sessioned")
	checkChoice(f, w, "exactly.once.source.support", w.ExactlyOnceSourceSupport, "disabled", "preparing", "enabled")
}

// checkChoice is P10 for a setting the file gives whose value (as the
// worker reads it) is none of the choices Kafka accepts.
func checkChoice(f *Findings, w *workerconfig.Config, key, value string, choices ...string) {
	if !w.Has(key) || slices.Contains(choices, value) {
		return
	}
	last := len(choices) - 1
	f.Add("P10", w.Name(), fmt.Sprintf("%s: %s = %q is not %s or %s", w.Path, key, w.Props[key], strings.Join(choices[:last], ", "), choices[last]),
		map[string]any{key: w.Props[key]})
}

func checkWorkerTiming(f *Findings, in TimeoutsInput, w *workerconfig.Config, v kafkaversion.Version) {
	name := w.Name()
	session := workerValue(w, "session.timeout.ms", v)
	hb := workerValue(w, "heartbeat.interval.ms", v)
	if session.Set && hb.Set {
		switch {
		case hb.N >= session.N:
			add(f, "T1", name, v, fmt.Sprintf("heartbeat.interval.ms %d is not below session.timeout.ms %d", hb.N, session.N),
				"heartbeat.interval.ms", hb, "session.timeout.ms", session)
		case hb.N*3 > session.N:
			add(f, "T2", name, v, fmt.Sprintf("heartbeat.interval.ms %d allows fewer than 3 heartbeats in session.timeout.ms %d", hb.N, session.N),
				"heartbeat.interval.ms", hb, "session.timeout.ms", session)
		}
		if hb.N < 1000 && applies(v, ver(2, 4, 0)) != no {
			add(f, "T8", name, v, fmt.Sprintf("heartbeat.interval.ms %d: a coordinator move longer than this stops all the worker's pieces", hb.N),
				"heartbeat.interval.ms", hb)
		}
	}
	if session.Set {
		checkSessionRange(f, in, name, "T3", "session.timeout.ms", session, v)
	}
	rebalance := workerValue(w, "rebalance.timeout.ms", v)
	shutdown := workerValue(w, "task.shutdown.graceful.timeout.ms", v)
	sync := workerValue(w, "worker.sync.timeout.ms", v)
	if rebalance.Set && shutdown.Set && sync.Set {
		tasks, assumed := in.TasksPerWorker, false
		if tasks <= 0 {
			tasks, assumed = 8, true
		}
		batches := int64((tasks + 7) / 8)
		block := batches*shutdown.N + 5000 + sync.N
		if rebalance.N <= block {
			msg := fmt.Sprintf("rebalance.timeout.ms %d ≤ %d ms a worker with %d tasks can block (ceil(%d/8)×%d + 5000 + %d)",
				rebalance.N, block, tasks, tasks, shutdown.N, sync.N)
			if assumed {
				msg += "; 8 tasks per worker assumed"
			}
			add(f, "T6", name, v, msg, "rebalance.timeout.ms", rebalance, "task.shutdown.graceful.timeout.ms", shutdown,
				"worker.sync.timeout.ms", sync, "tasks_per_worker", tasks, "blocking_ms", block)
		}
		if rebalance.N > 300000 {
			add(f, "T7", name, v, fmt.Sprintf("rebalance.timeout.ms %d: every round may wait this long for a stuck member", rebalance.N),
				"rebalance.timeout.ms", rebalance)
		}
	}
	idle := workerValue(w, "connections.max.idle.ms", v)
	brokerIdle := brokerValue(in.Broker, "connections.max.idle.ms", v)
	if idle.Set && idle.N >= brokerIdle.N {
		add(f, "T9", name, v, fmt.Sprintf("connections.max.idle.ms %d is not below the broker's %d", idle.N, brokerIdle.N),
			"connections.max.idle.ms", idle, "broker.connections.max.idle.ms", brokerIdle)
	}
	req := workerValue(w, "request.timeout.ms", v)
	if !req.Default && req.Set && req.N != 40000 && applies(v, ver(2, 0, 0)) != no {
		add(f, "T10", name, v, fmt.Sprintf("request.timeout.ms is set to %d; JoinGroup uses rebalance.timeout.ms + 5000 = %d on its own", req.N, rebalance.N+5000),
			"request.timeout.ms", req, "rebalance.timeout.ms", rebalance)
	}
	ttl := workerValue(w, "inter.worker.key.ttl.ms", v)
	if ttl.Set && ttl.N < 60000 && effectiveProtocol(w, v) == "sessioned" && applies(v, ver(2, 4, 0)) != no {
		add(f, "P14", name, v, fmt.Sprintf("inter.worker.key.ttl.ms %d: the session key is rotated more than once a minute", ttl.N),
			"inter.worker.key.ttl.ms", ttl)
	}
}

// checkSessionRange applies the broker's group session range (T3 for the
// worker, T4 for sink consumers).
func checkSessionRange(f *Findings, in TimeoutsInput, subject, rule, key string, session Value, v kafkaversion.Version) {
	lo := brokerValue(in.Broker, "group.min.session.timeout.ms", v)
	hi := brokerValue(in.Broker, "group.max.session.timeout.ms", v)
	values := []any{key, session, "group.min.session.timeout.ms", lo, "group.max.session.timeout.ms", hi}
	if session.N < lo.N || session.N > hi.N {
		add(f, rule, subject, v, fmt.Sprintf("%s %d is outside the broker's [%d, %d]", key, session.N, lo.N, hi.N), values...)
		return
	}
	// Unknown broker version and defaults: before 2.3.0 the default maximum was 300000.
	if hi.Default && !v.Known && session.N > 300000 {
		m, defaults := vals(values...)
		m["group.max.session.timeout.ms"] = int64(300000)
		fd := f.Add(rule, subject, fmt.Sprintf("%s %d exceeds 300000, the default group.max.session.timeout.ms of brokers before 2.3.0", key, session.N), m)
		fd.Defaults = defaults
		s := "brokers 0.10.0 to 2.2.x with the default group.max.session.timeout.ms"
		fd.AppliesTo = &s
	}
}

func checkWorkerDelay(f *Findings, in TimeoutsInput, w *workerconfig.Config, v kafkaversion.Version) {
	name := w.Name()
	delay := workerValue(w, "scheduled.rebalance.max.delay.ms", v)
	session := workerValue(w, "session.timeout.ms", v)
	if !delay.Set {
		return
	}
	proto := effectiveProtocol(w, v)
	if delay.N == 0 {
		affected := applies(v, ver(2, 3, 0))
		if affected == yes && v.AtLeast(ver(3, 5, 2), ver(3, 6, 1), ver(3, 7, 0)) {
			affected = no
		}
		if affected != no && proto != "eager" {
			add(f, "D1", name, v, "scheduled.rebalance.max.delay.ms is 0: lost pieces wait for an unrelated rebalance", "scheduled.rebalance.max.delay.ms", delay)
		}
	}
	if in.RestartTimeMs > 0 && delay.N < in.RestartTimeMs && proto != "eager" {
		add(f, "D2", name, v, fmt.Sprintf("scheduled.rebalance.max.delay.ms %d < restart time %d: a restarted worker's pieces move twice", delay.N, in.RestartTimeMs),
			"scheduled.rebalance.max.delay.ms", delay, "restart_time_ms", in.RestartTimeMs)
	}
	if session.Set {
		crash, clean := session.N+delay.N, delay.N
		if proto == "eager" {
			crash, clean = session.N, 0
		}
		add(f, "D3", name, v, fmt.Sprintf("crashed worker: pieces back after up to %d ms; clean shutdown: up to %d ms (%s protocol)", crash, clean, proto),
			"session.timeout.ms", session, "scheduled.rebalance.max.delay.ms", delay, "crash_outage_ms", crash, "shutdown_outage_ms", clean)
		if in.MaxDowntimeMs > 0 && crash > in.MaxDowntimeMs {
			add(f, "D6", name, v, fmt.Sprintf("crash outage up to %d ms exceeds --max-downtime %d ms", crash, in.MaxDowntimeMs),
				"session.timeout.ms", session, "scheduled.rebalance.max.delay.ms", delay, "crash_outage_ms", crash, "max_downtime_ms", in.MaxDowntimeMs)
		}
	}
	if delay.N < 50 && proto != "eager" && applies(v, ver(2, 5, 1), ver(2, 6, 0)) != no {
		add(f, "D4", name, v, fmt.Sprintf("scheduled.rebalance.max.delay.ms %d: config-sync retries sleep %d ms", delay.N, delay.N/10), "scheduled.rebalance.max.delay.ms", delay)
	}
	if delay.N > 0 && proto != "eager" && applies(v, ver(3, 4, 0)) != no {
		series := BackoffSeries(delay.N)
		parts := make([]string, len(series))
		for i, d := range series {
			parts[i] = fmt.Sprint(d)
		}
		msg := fmt.Sprintf("revocation backoff: %s ms (the last is the cap, scheduled.rebalance.max.delay.ms)", strings.Join(parts, ", "))
		add(f, "D5", name, v, msg, "scheduled.rebalance.max.delay.ms", delay, "backoff_ms", series)
	}
	unsync := workerValue(w, "worker.unsync.backoff.ms", v)
	if !unsync.Default && unsync.Set && unsync.N != 300000 && proto != "eager" && applies(v, ver(2, 5, 1), ver(2, 6, 0)) != no {
		add(f, "S4", name, v, fmt.Sprintf("worker.unsync.backoff.ms %d is ignored under the %s protocol", unsync.N, proto), "worker.unsync.backoff.ms", unsync)
	}
}

// BackoffSeries returns the consecutive-revocation delays (assignor.md §0):
// 40^k for k = 1, 2, … while below maxDelay, then maxDelay.
func BackoffSeries(maxDelay int64) []int64 {
	var out []int64
	for d := int64(40); d < maxDelay; d *= 40 {
		out = append(out, d)
	}
	return append(out, maxDelay)
}

func checkWorkerShutdown(f *Findings, w *workerconfig.Config, v kafkaversion.Version) {
	name := w.Name()
	shutdown := workerValue(w, "task.shutdown.graceful.timeout.ms", v)
	flushTimeout := workerValue(w, "offset.flush.timeout.ms", v)
	flushInterval := workerValue(w, "offset.flush.interval.ms", v)
	if shutdown.Set && flushTimeout.Set {
		switch {
		case shutdown.N < flushTimeout.N:
			add(f, "S1", name, v, fmt.Sprintf("task.shutdown.graceful.timeout.ms %d < offset.flush.timeout.ms %d", shutdown.N, flushTimeout.N),
				"task.shutdown.graceful.timeout.ms", shutdown, "offset.flush.timeout.ms", flushTimeout)
		case shutdown.N < 2*flushTimeout.N && !(shutdown.Default && flushTimeout.Default):
			// Kafka's own 5000/5000 is below 2×, but a default nobody chose
			// is not a finding; a value set in the file is.
			add(f, "S5", name, v, fmt.Sprintf("task.shutdown.graceful.timeout.ms %d < 2 × offset.flush.timeout.ms %d", shutdown.N, flushTimeout.N),
				"task.shutdown.graceful.timeout.ms", shutdown, "offset.flush.timeout.ms", flushTimeout)
		}
	}
	if flushTimeout.Set && flushInterval.Set && flushTimeout.N >= flushInterval.N {
		add(f, "S2", name, v, fmt.Sprintf("offset.flush.timeout.ms %d ≥ offset.flush.interval.ms %d", flushTimeout.N, flushInterval.N),
			"offset.flush.timeout.ms", flushTimeout, "offset.flush.interval.ms", flushInterval)
	}
}

// checkIdentity applies K11 (required keys) and K3 (distinct topic names).
func checkIdentity(f *Findings, w *workerconfig.Config) {
	var missing []string
	for _, k := range []string{"group.id", "config.storage.topic", "offset.storage.topic", "status.storage.topic"} {
		if w.Str(k) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		f.Add("K11", w.Name(), w.Path+": missing "+strings.Join(missing, ", "), map[string]any{"missing": missing})
	}
	t := w.TopicNames()
	if t.Config == t.Offset || t.Config == t.Status || t.Offset == t.Status {
		f.Add("K3", w.Name(), fmt.Sprintf("config %q, offsets %q, status %q", t.Config, t.Offset, t.Status),
			map[string]any{"config.storage.topic": t.Config, "offset.storage.topic": t.Offset, "status.storage.topic": t.Status})
	}
}

// effectiveProtocol is the worker's connect.protocol, or its version's default.
func effectiveProtocol(w *workerconfig.Config, v kafkaversion.Version) string {
	switch w.ConnectProtocol {
	case "eager", "compatible", "sessioned":
		if v.Known && v.Less(ver(2, 3, 0)) {
			return "eager" // the setting does not exist before 2.3.0
		}
		if v.Known && v.Less(ver(2, 4, 0)) && w.ConnectProtocol == "sessioned" {
			return "compatible" // unknown value to 2.3 would fail; treat as its best
		}
		return w.ConnectProtocol
	}
	switch {
	case v.Known && v.Less(ver(2, 3, 0)):
		return "eager"
	case v.Known && v.Less(ver(2, 4, 0)):
		return "compatible"
	}
	return "sessioned"
}
