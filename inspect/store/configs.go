// Package store replays the config, status and offsets topics as Connect's
// backing stores do: classifying records by topic, decoding keys and
// values, with secrets redacted unless DecodeOptions.ShowSecrets says.
package store

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect/redact"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// DecodeOptions tune the topic decoders.
type DecodeOptions struct {
	ShowSecrets bool   // show secret config values instead of "[redacted]"
	Topic       string // topic name reported in the result ("" = from the records, else Connect's default)
	Connector   string // only report this connector ("" = all); counts still cover every record read
	// KafkaVersion is the workers' release, for reader rules that changed
	// between releases (status_version.go); unknown = the newest behaviour.
	KafkaVersion kafkaversion.Version
}

// ConfigsResult is the `inspect configs` model (json-output.md): what
// Connect's KafkaConfigBackingStore holds after reading the records in order.
type ConfigsResult struct {
	Topic            string               `json:"topic"`
	Connectors       []ConnectorConfig    `json:"connectors"`
	SessionKey       *SessionKeyInfo      `json:"session_key"`
	TaskCountRecords map[string]int32     `json:"task_count_records"`
	RestartRequests  []RestartRequest     `json:"restart_requests"`
	Records          inspect.RecordCounts `json:"records"`
	Problems         []inspect.Problem    `json:"problems"`
	// LoggerLevels holds the cluster-wide logger levels read (namespace ->
	// level). Kafka's snapshot has no counterpart, so it is not in the JSON.
	LoggerLevels map[string]string `json:"-"`
}

// ConnectorConfig is one connector Connect holds a config for.
type ConnectorConfig struct {
	Name         string         `json:"name"`
	Config       map[string]any `json:"config"` // values: string, nil (JSON null) or json.RawMessage
	TargetState  string         `json:"target_state"`
	TaskCount    *int32         `json:"task_count"` // from the latest applied commit; nil when none
	Tasks        []TaskConfig   `json:"tasks"`      // what Connect runs; empty while inconsistent
	PendingTasks []string       `json:"pending_tasks"`
	Consistent   bool           `json:"consistent"`
}

// TaskConfig is one task's applied config.
type TaskConfig struct {
	ID     string         `json:"id"`
	Task   int32          `json:"-"`
	Config map[string]any `json:"config"`
}

// SessionKeyInfo describes the session key without its material.
type SessionKeyInfo struct {
	Algorithm   string `json:"algorithm"`
	CreatedAtMs int64  `json:"created_at_ms"`
	Key         string `json:"key"` // always "[redacted]"
}

// RestartRequest is the latest restart request read for a connector.
type RestartRequest struct {
	Connector    string `json:"connector"`
	IncludeTasks bool   `json:"include_tasks"`
	OnlyFailed   bool   `json:"only_failed"`
	Offset       int64  `json:"offset"`
}

// configReplay mirrors the maps of KafkaConfigBackingStore.
type configReplay struct {
	configs          map[string]map[string]any           // connector configs
	taskCounts       map[string]int32                    // from applied commits
	applied          map[string]map[int32]map[string]any // applied task configs
	deferred         map[string]map[int32]map[string]any // task configs waiting for a commit
	inconsistent     map[string]bool
	targetStates     map[string]string
	taskCountRecords map[string]int32
	sessionKey       *SessionKeyInfo
	restarts         map[string]RestartRequest
	loggers          map[string]string
	rules            configRules // what the chosen Kafka release does (config_version.go)
}

func newConfigState() *configReplay {
	return &configReplay{
		configs:          map[string]map[string]any{},
		taskCounts:       map[string]int32{},
		applied:          map[string]map[int32]map[string]any{},
		deferred:         map[string]map[int32]map[string]any{},
		inconsistent:     map[string]bool{},
		targetStates:     map[string]string{},
		taskCountRecords: map[string]int32{},
		restarts:         map[string]RestartRequest{},
		loggers:          map[string]string{},
	}
}

// DecodeConfigs replays config-topic records one at a time in the order
// given, as Connect's reader does, and returns the resulting model.
func DecodeConfigs(records []inspect.Record, opts DecodeOptions) *ConfigsResult {
	st := newConfigState()
	st.rules = configRulesOf(opts.KafkaVersion)
	res := &ConfigsResult{Topic: resultTopic(opts.Topic, records, inspect.DefaultTopicNames().Config), Problems: []inspect.Problem{}}
	for _, r := range records {
		res.Records.Read++
		reason := st.apply(r)
		switch {
		case reason != "": // an invalid key with a null value too: Kafka discards it
			res.Records.Problems++
			res.Problems = append(res.Problems, recordProblem(r, reason))
		case r.Value == nil:
			res.Records.Tombstones++
		default:
			res.Records.Decoded++
		}
	}
	st.fill(res, opts)
	return res
}

// apply applies one record and returns why it is a problem ("" if it is not).
// Effects follow Kafka even for problem records (a malformed commit of a
// connector without config still clears it, as Kafka does).
func (st *configReplay) apply(r inspect.Record) string {
	if r.Key == nil {
		return "record has no key"
	}
	key := keyText(r.Key)
	var value map[string]json.RawMessage // nil: null value or JSON null
	if r.Value != nil {
		if !json.Valid(r.Value) {
			return notJSON("value", r.Value) // Kafka skips it before looking at the key
		}
		if !isJSONNull(r.Value) { // the converter turns JSON null into a null value
			m, reason := jsonObject(r.Value)
			if reason != "" {
				return st.applyNonObject(key, reason)
			}
			value = m
		}
	}
	switch {
	case strings.HasPrefix(key, "target-state-"):
		return st.targetState(key[len("target-state-"):], value)
	case strings.HasPrefix(key, "connector-"):
		return st.connector(key[len("connector-"):], value)
	case strings.HasPrefix(key, "task-"):
		name, task, ok := parseConfigTaskKey(key)
		if !ok {
			return "task key without a task number: " + strconv.Quote(key)
		}
		return st.taskConfig(name, task, value)
	case strings.HasPrefix(key, "commit-"):
		return st.commit(key[len("commit-"):], value)
	case strings.HasPrefix(key, "restart-connector-"):
		return st.restart(key[len("restart-connector-"):], value, r.Offset)
	case strings.HasPrefix(key, "tasks-fencing-"):
		return st.taskCountRecord(key[len("tasks-fencing-"):], value)
	case key == "session-key":
		return st.session(value)
	case strings.HasPrefix(key, "logger-cluster-"):
		return st.logger(key[len("logger-cluster-"):], value)
	}
	return "key has no prefix Connect writes to the config topic: " + strconv.Quote(key)
}

// applyNonObject handles a JSON value that is not an object (nor null): it
// is a problem for every record kind, but a commit of a connector with no
// config still clears that connector first, as in Kafka.
func (st *configReplay) applyNonObject(key, reason string) string {
	switch {
	case strings.HasPrefix(key, "commit-"):
		name := key[len("commit-"):]
		if _, ok := st.configs[name]; !ok {
			st.removeConnector(name)
		}
	case strings.HasPrefix(key, "task-"):
		if _, _, ok := parseConfigTaskKey(key); !ok {
			return "task key without a task number: " + strconv.Quote(key)
		}
	case strings.HasPrefix(key, "target-state-"), strings.HasPrefix(key, "connector-"),
		strings.HasPrefix(key, "restart-connector-"), strings.HasPrefix(key, "tasks-fencing-"),
		key == "session-key", strings.HasPrefix(key, "logger-cluster-"):
	default:
		return "key has no prefix Connect writes to the config topic: " + strconv.Quote(key)
	}
	return reason
}

// removeConnector is what a connector tombstone clears (§6.7).
func (st *configReplay) removeConnector(name string) {
	delete(st.configs, name)
	delete(st.taskCounts, name)
	delete(st.applied, name)
	delete(st.deferred, name)
}

func (st *configReplay) targetState(name string, value map[string]json.RawMessage) string {
	if value == nil {
		delete(st.targetStates, name)
		if _, ok := st.configs[name]; ok {
			st.targetStates[name] = "STARTED"
		}
		return ""
	}
	raw, ok := value["state.v2"]
	if ok && !isJSONNull(raw) {
		if _, isText := jsonText(raw); !isText {
			ok = false // a non-string state.v2 is ignored; "state" is used
		}
	}
	if !ok || isJSONNull(raw) {
		raw = value["state"]
	}
	state, isText := jsonText(raw)
	if !isText {
		return "target state has no string \"state.v2\" or \"state\""
	}
	switch state {
	case "STARTED", "PAUSED", "STOPPED":
		st.targetStates[name] = state
		return ""
	}
	return "unknown target state " + strconv.Quote(state)
}

func (st *configReplay) connector(name string, value map[string]json.RawMessage) string {
	if value == nil {
		st.removeConnector(name)
		return ""
	}
	props, reason := properties(value, "connector config")
	if reason != "" {
		return reason
	}
	st.configs[name] = props
	if _, ok := st.targetStates[name]; !ok {
		st.targetStates[name] = "STARTED"
	}
	return ""
}

func (st *configReplay) taskConfig(name string, task int32, value map[string]json.RawMessage) string {
	if value == nil {
		return "" // Kafka ignores a null task config (a tombstone)
	}
	props, reason := properties(value, "task config")
	if reason != "" {
		return reason
	}
	buf := st.deferred[name]
	if buf == nil {
		buf = map[int32]map[string]any{}
		st.deferred[name] = buf
	}
	buf[task] = props
	return ""
}

func (st *configReplay) commit(name string, value map[string]json.RawMessage) string {
	if _, ok := st.configs[name]; !ok && st.rules.commitNeedsConfig {
		// KAFKA-16838 (3.7.1/3.8.0+): no config at this point of the log, so
		// everything for the connector is dropped and the commit ignored.
		st.removeConnector(name)
		if value != nil {
			if _, ok := jsonLong(value["tasks"]); !ok {
				return "commit has no integer \"tasks\""
			}
		}
		return ""
	}
	if value == nil {
		return ""
	}
	n64, ok := jsonLong(value["tasks"])
	if !ok {
		return "commit has no integer \"tasks\""
	}
	n := javaInt(n64)
	buf := st.deferred[name]
	if completeTaskSet(buf, n) {
		if len(buf) > 0 {
			ap := st.applied[name]
			if ap == nil {
				ap = map[int32]map[string]any{}
				st.applied[name] = ap
			}
			for id, cfg := range buf {
				ap[id] = cfg
			}
		}
		delete(st.inconsistent, name)
	} else {
		st.inconsistent[name] = true
	}
	delete(st.deferred, name)
	st.taskCounts[name] = n
	return ""
}

// completeTaskSet: the buffer holds every id 0..n-1 (extra ids are fine).
func completeTaskSet(buf map[int32]map[string]any, n int32) bool {
	if n <= 0 {
		return true
	}
	if len(buf) < int(n) {
		return false
	}
	found := 0
	for id := range buf {
		if id >= 0 && id < n {
			found++
		}
	}
	return found == int(n)
}

func (st *configReplay) restart(name string, value map[string]json.RawMessage, offset int64) string {
	if value == nil {
		return ""
	}
	includeTasks, _ := jsonBool(value["include-tasks"])
	onlyFailed, _ := jsonBool(value["only-failed"])
	st.restarts[name] = RestartRequest{Connector: name, IncludeTasks: includeTasks, OnlyFailed: onlyFailed, Offset: offset}
	return ""
}

func (st *configReplay) taskCountRecord(name string, value map[string]json.RawMessage) string {
	if value == nil {
		return ""
	}
	n, ok := jsonLong(value["task-count"])
	if !ok {
		return "task-count record has no integer \"task-count\""
	}
	st.taskCountRecords[name] = javaInt(n)
	return ""
}

func (st *configReplay) session(value map[string]json.RawMessage) string {
	if value == nil {
		return ""
	}
	material, ok := jsonText(value["key"])
	if !ok {
		return "session key has no string \"key\""
	}
	algorithm, ok := jsonText(value["algorithm"])
	if !ok {
		return "session key has no string \"algorithm\""
	}
	created, ok := jsonLong(value["creation-timestamp"])
	if !ok {
		return "session key has no integer \"creation-timestamp\""
	}
	if material == redact.Placeholder && algorithm != "" {
		// A snapshot never stores the key itself (README "Snapshot files").
		st.sessionKey = &SessionKeyInfo{Algorithm: algorithm, CreatedAtMs: created, Key: redact.Placeholder}
		return ""
	}
	decoded, err := base64.StdEncoding.DecodeString(material)
	if err != nil {
		return "session key material is not base64: " + err.Error()
	}
	if len(decoded) == 0 || algorithm == "" {
		return "session key material or algorithm is empty"
	}
	st.sessionKey = &SessionKeyInfo{Algorithm: algorithm, CreatedAtMs: created, Key: redact.Placeholder}
	return ""
}

func (st *configReplay) logger(namespace string, value map[string]json.RawMessage) string {
	if value == nil {
		return ""
	}
	level, ok := jsonText(value["level"])
	if !ok {
		return "logger level record has no string \"level\""
	}
	st.loggers[namespace] = level
	return ""
}

// fill renders the state as the JSON model: sorted, redacted, filtered.
func (st *configReplay) fill(res *ConfigsResult, opts DecodeOptions) {
	keep := func(name string) bool { return opts.Connector == "" || opts.Connector == name }
	names := make([]string, 0, len(st.configs))
	for name := range st.configs {
		if keep(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	res.Connectors = make([]ConnectorConfig, 0, len(names))
	for _, name := range names {
		c := ConnectorConfig{
			Name:         name,
			Config:       redact.Values(st.configs[name], opts.ShowSecrets),
			TargetState:  st.targetStates[name],
			Tasks:        []TaskConfig{},
			PendingTasks: []string{},
			Consistent:   !st.inconsistent[name],
		}
		if n, ok := st.taskCounts[name]; ok {
			c.TaskCount = &n
			if c.Consistent {
				for _, id := range sortedTaskIDs(st.applied[name]) {
					if id >= 0 && id < n {
						c.Tasks = append(c.Tasks, TaskConfig{
							ID:     protocol.TaskRef{Connector: name, Task: id}.String(),
							Task:   id,
							Config: redact.Values(st.applied[name][id], opts.ShowSecrets),
						})
					}
				}
			}
		}
		for _, id := range sortedTaskIDs(st.deferred[name]) {
			c.PendingTasks = append(c.PendingTasks, protocol.TaskRef{Connector: name, Task: id}.String())
		}
		res.Connectors = append(res.Connectors, c)
	}
	res.SessionKey = st.sessionKey
	res.TaskCountRecords = map[string]int32{}
	for name, n := range st.taskCountRecords {
		if keep(name) {
			res.TaskCountRecords[name] = n
		}
	}
	res.RestartRequests = []RestartRequest{}
	for name, req := range st.restarts {
		if keep(name) {
			res.RestartRequests = append(res.RestartRequests, req)
		}
	}
	sort.Slice(res.RestartRequests, func(i, j int) bool {
		return res.RestartRequests[i].Connector < res.RestartRequests[j].Connector
	})
	res.LoggerLevels = st.loggers
}

func sortedTaskIDs[V any](m map[int32]V) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
