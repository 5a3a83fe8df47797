package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// Record keys and values as Connect writes them (connect-internals.md §6-§8).
// Values are compact JSON; field order follows Connect's schemas.

func connectorKey(name string) string   { return "connector-" + name }
func targetStateKey(name string) string { return "target-state-" + name }
func commitKey(name string) string      { return "commit-" + name }
func taskKey(t taskID) string           { return "task-" + t.Connector + "-" + strconv.Itoa(t.Task) }
func connectorStatusKey(name string) string {
	return "status-connector-" + name
}
func taskStatusKey(t taskID) string {
	return "status-task-" + t.Connector + "-" + strconv.Itoa(t.Task)
}
func topicStatusKey(topic, connector string) string {
	return "status-topic-" + topic + ":connector-" + connector
}

// compactJSON marshals v without HTML escaping, as Jackson does.
func compactJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own fixed shapes are encoded here; they always marshal.
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// orderedProps keeps a connector's properties in a fixed order (Java's
// HashMap order is not reproduced; readers do not depend on it).
type orderedProps [][2]string

func (p orderedProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(compactJSON(kv[0]))
		b.WriteByte(':')
		b.Write(compactJSON(kv[1]))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// connectorProps is a connector's config as connect-file's connectors take
// it: class, tasks.max, the topic(s), the file, and the name Connect adds.
func connectorProps(c *connectorState) orderedProps {
	props := orderedProps{{"connector.class", c.classes().connector}, {"tasks.max", strconv.Itoa(c.tasksMax)}}
	switch {
	case c.kind == KindSink:
		props = append(props, [2]string{"topics", c.topic}, [2]string{"file", "/data/" + c.name + "/out.txt"})
	case c.multiFile:
		props = append(props, [2]string{"topic", c.topic})
	default:
		props = append(props, [2]string{"topic", c.topic}, [2]string{"file", sourceFile(c.name, 0)})
	}
	return append(props, [2]string{"name", c.name})
}

func connectorConfigValue(c *connectorState) []byte {
	return compactJSON(struct {
		Properties orderedProps `json:"properties"`
	}{connectorProps(c)})
}

// taskConfigValue is what real connect-file tasks get (checked against real
// workers): the connector's whole config plus task.class. The sandbox's
// multi-file source adds each task's own file.
func taskConfigValue(c *connectorState, n int) []byte {
	props := append(connectorProps(c), [2]string{"task.class", c.classes().task})
	if c.multiFile {
		props = append(props, [2]string{"file", sourceFile(c.name, n)})
	}
	return compactJSON(struct {
		Properties orderedProps `json:"properties"`
	}{props})
}

func commitValue(tasks int) []byte {
	return compactJSON(struct {
		Tasks int `json:"tasks"`
	}{tasks})
}

// targetStateValue writes the 3.5+ shape: the real state in state.v2 and a
// downgrade-safe one in state (PAUSED for STOPPED).
func targetStateValue(state string) []byte {
	legacy := state
	if state == TargetStopped {
		legacy = TargetPaused
	}
	return compactJSON(struct {
		State   string `json:"state"`
		StateV2 string `json:"state.v2"`
	}{legacy, state})
}

func sessionKeyValue(nowMs int64) ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("making a session key: %w", err)
	}
	return compactJSON(struct {
		Key       string `json:"key"`
		Algorithm string `json:"algorithm"`
		Created   int64  `json:"creation-timestamp"`
	}{base64.StdEncoding.EncodeToString(key), "HmacSHA256", nowMs}), nil
}

func statusValue(state, trace, workerID string, generation int32) []byte {
	var tr *string
	if trace != "" {
		tr = &trace
	}
	return compactJSON(struct {
		State      string  `json:"state"`
		Trace      *string `json:"trace"`
		WorkerID   string  `json:"worker_id"`
		Generation int32   `json:"generation"`
	}{state, tr, workerID, generation})
}

func topicStatusValue(topic, connector string, task int, nowMs int64) []byte {
	type inner struct {
		Name      string `json:"name"`
		Connector string `json:"connector"`
		Task      int    `json:"task"`
		Discover  int64  `json:"discoverTimestamp"`
	}
	return compactJSON(struct {
		Topic inner `json:"topic"`
	}{inner{topic, connector, task, nowMs}})
}

func sourceFile(connector string, task int) string {
	return "/data/" + connector + "/in-" + strconv.Itoa(task) + ".txt"
}

// sourceOffsetKey is the offsets-topic key [connector, partition map].
func sourceOffsetKey(connector string, task int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	b.Write(compactJSON(connector))
	b.WriteString(`,{"filename":`)
	b.Write(compactJSON(sourceFile(connector, task)))
	b.WriteString("}]")
	return b.Bytes()
}

func sourceOffsetValue(position int64) []byte {
	return compactJSON(struct {
		Position int64 `json:"position"`
	}{position})
}

// failureTrace is the stack trace a failed task reports.
func failureTrace(t taskID) string {
	return "org.apache.kafka.connect.errors.ConnectException: simulated failure of " + t.String() + "\n" +
		"\tat io.connectscope.sandbox.SimulatedTask.poll(SimulatedTask.java:42)\n" +
		"\tat org.apache.kafka.connect.runtime.WorkerSourceTask.poll(WorkerSourceTask.java:470)\n"
}
