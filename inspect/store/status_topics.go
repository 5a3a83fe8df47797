package store

import (
	"encoding/json"
	"strconv"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// The status topic's topic records (KIP-558): the topics a connector has
// used, keyed topic-TOPIC-connector-NAME.

type topicStatusEntry struct {
	keyConnector, keyTopic string
	value                  TopicStatus
}

func (st *statusReplay) topic(key StatusKey[string], value []byte) string {
	keyTopic, keyConnector := key.Topic, key.Connector
	id := [2]string{keyConnector, keyTopic}
	if value == nil {
		delete(st.topics, id)
		return ""
	}
	ts, reason := scanned(value, scanTopicStatusValue, parseTopicStatusValueSlow)
	if reason != "" {
		return reason
	}
	st.topics[id] = &topicStatusEntry{keyConnector: keyConnector, keyTopic: keyTopic, value: ts}
	if ts.Connector != keyConnector || ts.Topic != keyTopic {
		return "topic status value names topic " + strconv.Quote(ts.Topic) + " of connector " +
			strconv.Quote(ts.Connector) + " but its key names topic " + strconv.Quote(keyTopic) +
			" of connector " + strconv.Quote(keyConnector) + " (filed under the key, as Kafka does)"
	}
	return ""
}

func parseTopicStatusValueSlow(value []byte) (TopicStatus, string) {
	var ts TopicStatus
	m, reason := jsonObject(value)
	if reason != "" {
		return ts, reason
	}
	raw, ok := m["topic"]
	if !ok || firstJSONByte(raw) != '{' {
		return ts, "topic status has no \"topic\" object"
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(raw, &inner); err != nil {
		return ts, "topic status has no \"topic\" object: " + err.Error()
	}
	if ts.Topic, ok = jsonText(inner["name"]); !ok {
		return ts, "topic status has no string \"name\""
	}
	if ts.Connector, ok = jsonText(inner["connector"]); !ok {
		return ts, "topic status has no string \"connector\""
	}
	task, ok := jsonLong(inner["task"])
	if !ok {
		return ts, "topic status has no integer \"task\""
	}
	ts.Task = javaInt(task)
	if ts.DiscoverTimestampMs, ok = jsonLong(inner["discoverTimestamp"]); !ok {
		return ts, "topic status has no integer \"discoverTimestamp\""
	}
	return ts, ""
}

// scanTopicStatusValue is the allocation-light fast path of
// parseTopicStatusValueSlow for the shape Connect writes:
// {"topic":{"name":…,"connector":…,"task":N,"discoverTimestamp":N}}. It
// reports false for anything unusual (escapes, non-ASCII, nested values,
// duplicate or missing members), which the slow path then explains.
func scanTopicStatusValue(b []byte) (TopicStatus, bool) {
	var ts TopicStatus
	i, ok := jsonscan.Punct(b, 0, '{')
	if !ok {
		return ts, false
	}
	sawTopic := false
	for more := true; more; {
		name, next, ok := jsonscan.MemberName(b, i)
		if !ok {
			return ts, false
		}
		i = next
		if string(name) == "topic" {
			if sawTopic {
				return ts, false
			}
			if i, ok = scanTopicInner(b, i, &ts); !ok {
				return ts, false
			}
			sawTopic = true
		} else {
			if _, i, ok = jsonscan.Scalar(b, i); !ok {
				return ts, false
			}
		}
		if i, more, ok = jsonscan.NextMember(b, i); !ok {
			return ts, false
		}
	}
	return ts, sawTopic && jsonscan.Space(b, i+1) == len(b)
}

func scanTopicInner(b []byte, i int, ts *TopicStatus) (int, bool) {
	i, ok := jsonscan.Punct(b, i, '{')
	if !ok {
		return 0, false
	}
	var seen [4]bool
	for more := true; more; {
		name, next, ok := jsonscan.MemberName(b, i)
		if !ok {
			return 0, false
		}
		kind, end, ok := jsonscan.Scalar(b, next)
		if !ok {
			return 0, false
		}
		tok := b[next:end]
		field := -1
		switch string(name) {
		case "name":
			field = 0
		case "connector":
			field = 1
		case "task":
			field = 2
		case "discoverTimestamp":
			field = 3
		}
		if field >= 0 {
			if seen[field] {
				return 0, false
			}
			seen[field] = true
			switch field {
			case 0, 1:
				if kind != jsonscan.KindString || !plainASCII(tok) {
					return 0, false
				}
				if field == 0 {
					ts.Topic = string(tok[1 : len(tok)-1])
				} else {
					ts.Connector = string(tok[1 : len(tok)-1])
				}
			case 2, 3:
				if kind != jsonscan.KindInteger {
					return 0, false
				}
				n, ok := integerToken(tok)
				if !ok {
					return 0, false
				}
				if field == 2 {
					ts.Task = javaInt(n)
				} else {
					ts.DiscoverTimestampMs = n
				}
			}
		}
		if i, more, ok = jsonscan.NextMember(b, end); !ok {
			return 0, false
		}
	}
	return i + 1, seen[0] && seen[1] && seen[2] && seen[3]
}
