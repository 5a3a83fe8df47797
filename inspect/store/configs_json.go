package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
)

// Helpers shared by the config, status and offsets decoders. Connect reads
// these values with its internal JsonConverter (schemas disabled): objects
// become maps, integers become Java longs, other numbers doubles.

// keyText turns record key bytes into the string Java's StringDeserializer
// would produce (invalid UTF-8 replaced as Java does).
func keyText(key []byte) string {
	s, _ := protocol.JavaUTF8(key)
	return s
}

// recordProblem builds the problem entry for record r.
func recordProblem(r inspect.Record, reason string) inspect.Problem {
	return inspect.Problem{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Key: keyText(r.Key), HasKey: r.Key != nil, Reason: reason}
}

// jsonObject decodes value as a JSON object whose members stay raw. The
// reason says why it is not one ("" when it is).
func jsonObject(value []byte) (map[string]json.RawMessage, string) {
	if !json.Valid(value) {
		return nil, notJSON("value", value)
	}
	if firstJSONByte(value) != '{' {
		return nil, "value is not a JSON object"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(value, &m); err != nil {
		return nil, "value is not a JSON object: " + err.Error()
	}
	return m, ""
}

// firstJSONByte is the first byte of b that is not JSON white space (0 if none).
func firstJSONByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}

// isJSONNull reports whether raw is the JSON literal null (or absent).
func isJSONNull(raw json.RawMessage) bool {
	return raw == nil || string(bytes.TrimSpace(raw)) == "null"
}

// jsonText returns raw as a string when it is a JSON string.
func jsonText(raw json.RawMessage) (string, bool) {
	if firstJSONByte(raw) != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// jsonBool returns raw as a bool when it is true or false.
func jsonBool(raw json.RawMessage) (bool, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// jsonLong returns raw as Java would see it after the converter: an integer
// literal becomes a long, keeping the low 64 bits of a larger one (Jackson's
// BigInteger.longValue()). Fractions and exponents are doubles, not integers.
func jsonLong(raw json.RawMessage) (int64, bool) {
	return integerToken(bytes.TrimSpace(raw))
}

// integerToken parses a JSON integer literal (no fraction, no exponent).
func integerToken(tok []byte) (int64, bool) {
	if len(tok) == 0 {
		return 0, false
	}
	digits := tok
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	if len(tok) <= 18 { // fits without overflow: fast path
		var n int64
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		if tok[0] == '-' {
			n = -n
		}
		return n, true
	}
	if n, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
		return n, true
	}
	b, ok := new(big.Int).SetString(string(tok), 10)
	if !ok {
		return 0, false
	}
	low := new(big.Int).And(b, new(big.Int).SetUint64(^uint64(0)))
	return int64(low.Uint64()), true
}

// javaInt is Java's (int) cast of a long: the low 32 bits.
func javaInt(n int64) int32 { return int32(n) }

// properties are a connector or task config record's "properties" object,
// as values; what names the record in the reason when it has none.
func properties(value map[string]json.RawMessage, what string) (map[string]any, string) {
	raw, ok := value["properties"]
	if !ok || firstJSONByte(raw) != '{' {
		return nil, what + " has no \"properties\" object"
	}
	var props map[string]json.RawMessage
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, what + " has no \"properties\" object: " + err.Error()
	}
	return propertyValues(props), ""
}

// propertyValues turns a decoded "properties" object into a config map:
// strings stay strings, null becomes nil, anything else keeps its raw JSON
// (Connect keeps non-string values as they are).
func propertyValues(m map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(m))
	for k, raw := range m {
		if s, ok := jsonText(raw); ok {
			out[k] = s
		} else if isJSONNull(raw) {
			out[k] = nil
		} else {
			out[k] = json.RawMessage(bytes.TrimSpace(raw))
		}
	}
	return out
}

// ConfigStrings flattens a decoded config map to strings for callers that
// want map[string]string: non-string values become their JSON text, null "".
func ConfigStrings(cfg map[string]any) map[string]string {
	if cfg == nil {
		return nil
	}
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		switch x := v.(type) {
		case string:
			out[k] = x
		case nil:
			out[k] = ""
		case json.RawMessage:
			out[k] = string(x)
		default:
			b, _ := json.Marshal(x)
			out[k] = string(b)
		}
	}
	return out
}

// resultTopic picks the topic name a result reports.
func resultTopic(opt string, records []inspect.Record, fallback string) string {
	seen := ""
	if len(records) > 0 {
		seen = records[0].Topic
	}
	return topicName(opt, seen, fallback)
}

// topicName is the topic a result names: the one the options give, else
// the one its records came from, else Kafka's default.
func topicName(opt, seen, fallback string) string {
	if opt != "" {
		return opt
	}
	if seen != "" {
		return seen
	}
	return fallback
}

// maxJSONDepth is how deep encoding/json reads nested arrays and objects;
// json.Valid refuses anything deeper.
const maxJSONDepth = 10000

// notJSON is the reason a value json.Valid refuses is a problem: named as
// what ("value", "offset key"), not JSON, or valid JSON nested deeper than
// the decoder reads, which "not JSON" would misname.
func notJSON(what string, b []byte) string {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > maxJSONDepth {
				return fmt.Sprintf("%s is nested more than %d levels deep (more than the decoder reads)", what, maxJSONDepth)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return what + " is not JSON"
}
