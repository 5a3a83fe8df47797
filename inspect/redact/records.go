package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// Dataset returns a copy of ds fit to be written to a file: the
// session key's material is always replaced (its algorithm and creation
// time stay), and unless show is set every secret-looking config value in
// the config topic's records, credentials inside status traces and secret
// broker or topic settings are redacted as output redacts them. Records
// stay decodable: the redacted ones are re-encoded JSON of the same shape.
// ds itself is not changed.
func Dataset(ds *inspect.Dataset, show bool) *inspect.Dataset {
	if ds == nil {
		return nil
	}
	out := *ds
	out.Records = make([]inspect.Record, len(ds.Records))
	for i, r := range ds.Records {
		if r.Value != nil && r.Key != nil {
			switch r.Topic {
			case ds.Topics.Config:
				r.Value = redactConfigRecord(string(r.Key), r.Value, show)
			case ds.Topics.Status:
				if !show {
					r.Value = redactStatusRecord(r.Value)
				}
			}
		}
		out.Records[i] = r
	}
	if !show && ds.Group != nil {
		out.Group = groupURLs(ds.Group)
	}
	if !show {
		out.BrokerConfigs = Config(ds.BrokerConfigs, false)
		out.TopicDescriptions = make([]inspect.TopicDescription, len(ds.TopicDescriptions))
		for i, td := range ds.TopicDescriptions {
			td.Configs = Config(td.Configs, false)
			out.TopicDescriptions[i] = td
		}
	}
	return &out
}

// groupURLs is the group with its members' advertised REST URLs, in their
// metadata and in the leader URL of their assignments, as URL shows them:
// every view drops their user information, query and fragment, and so
// does a file.
func groupURLs(g *inspect.GroupDescription) *inspect.GroupDescription {
	out := *g
	out.Members = make([]inspect.GroupMember, len(g.Members))
	for i, m := range g.Members {
		m.Metadata = protocol.RewriteMetadataURL(m.Metadata, URL)
		m.Assignment = protocol.RewriteLeaderURL(m.Assignment, URL)
		out.Members[i] = m
	}
	return &out
}

// redactConfigRecord redacts one config topic value. A value that does not
// decode (truncated, corrupt) is still redacted as text: its secret-keyed
// JSON string values and embedded credentials are replaced, and a session
// key's material goes even under --show-secrets.
func redactConfigRecord(key string, value []byte, show bool) []byte {
	isSession := key == "session-key"
	isProps := strings.HasPrefix(key, "connector-") || strings.HasPrefix(key, "task-")
	if !isSession && (show || !isProps) {
		return value
	}
	asText := func() []byte {
		if isSession {
			return redactJSONText(value, func(k string) bool { return k == "key" })
		}
		return []byte(Text(string(redactJSONText(value, IsSecretKey))))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(value, &obj); err != nil || obj == nil {
		return asText()
	}
	if isSession {
		if _, ok := obj["key"]; !ok {
			return value
		}
		obj["key"] = mustJSON(Placeholder)
		return encodeObject(obj, value)
	}
	raw, ok := obj["properties"]
	if !ok {
		return value
	}
	var props map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&props); err != nil || props == nil {
		return asText()
	}
	obj["properties"] = mustJSON(Values(props, false))
	return encodeObject(obj, value)
}

// jsonStringPair is "name": "value" in JSON text that need not parse; a
// value cut off by the end of the text counts too.
var jsonStringPair = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)(?:"|$)`)

// redactJSONText replaces the string values of the names secret says are
// secret, in JSON text that may not parse; the rest is kept byte for byte.
func redactJSONText(value []byte, secret func(name string) bool) []byte {
	var out []byte
	last := 0
	for _, m := range jsonStringPair.FindAllSubmatchIndex(value, -1) {
		name, v := string(value[m[2]:m[3]]), string(value[m[4]:m[5]])
		if v == "" || v == Placeholder || !secret(name) || IsProviderReference(v) {
			continue
		}
		out = append(out, value[last:m[4]]...)
		out = append(out, Placeholder...)
		last = m[5]
	}
	if out == nil {
		return value
	}
	return append(out, value[last:]...)
}

// redactStatusRecord redacts credentials in a status value's trace.
func redactStatusRecord(value []byte) []byte {
	if !bytes.Contains(value, []byte(`"trace"`)) {
		return value
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(value, &obj); err != nil || obj == nil {
		return value
	}
	var trace string
	if err := json.Unmarshal(obj["trace"], &trace); err != nil {
		return value
	}
	red := Text(trace)
	if red == trace {
		return value
	}
	obj["trace"] = mustJSON(red)
	return encodeObject(obj, value)
}

func mustJSON(v any) json.RawMessage {
	b, err := marshalNoEscape(v)
	if err != nil { // strings and decoded maps always encode; stay safe anyway
		return json.RawMessage(`"` + Placeholder + `"`)
	}
	return b
}

func encodeObject(obj map[string]json.RawMessage, orig []byte) []byte {
	b, err := marshalNoEscape(obj)
	if err != nil {
		return orig
	}
	return b
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
