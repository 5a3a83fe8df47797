package store

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect/protocol"
)

// The keys of the config and status topics' records, read as Kafka's
// backing stores read them. Every package that looks at a status-topic key
// goes through ParseStatusKey, so each view, plan and check files a record
// under the piece Kafka does (names come from anyone who can write to the
// topic: nothing here trusts their shape).

// StatusKeyKind is the record kind a status-topic key's prefix names.
type StatusKeyKind uint8

// The status-topic key kinds.
const (
	StatusKeyOther     StatusKeyKind = iota // no prefix Connect writes to the status topic
	StatusKeyConnector                      // status-connector-NAME
	StatusKeyTask                           // status-task-NAME-N
	StatusKeyTopic                          // status-topic-TOPIC:connector-NAME
)

// StatusKey is a status-topic key as Kafka's KafkaStatusBackingStore reads
// it. Connector and Topic are parts of the key given (no copies).
// Small enough to come back in registers: the decoder parses every key.
type StatusKey[K string | []byte] struct {
	Kind      StatusKeyKind
	bad       statusKeyBad // why Kafka discards the record (0: it reads it, a tombstone too)
	Task      int32        // the task number (StatusKeyTask)
	Connector K            // the connector named (a valid key of any kind)
	Topic     K            // the topic named (StatusKeyTopic)
}

// statusKeyBad is why a status key is discarded.
type statusKeyBad uint8

const (
	badStatusNone statusKeyBad = iota
	badStatusPrefix
	badStatusConnectorName
	badStatusTaskNumber
	badStatusTaskName
	badStatusTopic
)

var statusKeyBadText = [...]string{
	badStatusPrefix:        "key has no prefix Connect writes to the status topic",
	badStatusConnectorName: "connector status key has an empty connector name",
	badStatusTaskNumber:    "task status key without a task number",
	badStatusTaskName:      "task status key has an empty connector name",
	badStatusTopic:         "topic status key is not status-topic-<topic>:connector-<connector>",
}

const (
	prefixStatusConnector = "status-connector-"
	prefixStatusTask      = "status-task-"
	prefixStatusTopic     = "status-topic-"
	prefixConfigTask      = "task-"
)

// ParseStatusKey reads a status-topic key as Kafka does. key is the key's
// text as Kafka's string deserializer gives it (valid UTF-8; see
// ParseStatusRecordKey for a record's raw bytes). It does not allocate
// (but for a topic key's connector that starts with half a surrogate
// pair). Given raw bytes that are not UTF-8, the kind and whether a
// connector or task key is valid are still its text's; names are not.
//
// Kafka's rules (KafkaStatusBackingStore.read): a connector key names what
// follows its prefix, empty being invalid. A task key is split on "-" with
// Java's String.split (trailing empty parts dropped), needs four parts, and
// its last part is read with Integer.parseInt (an optional "+", then digits
// of any script in the Basic Multilingual Plane, leading zeros allowed, the
// value within int32; a "-" cannot occur, split removed it), the parts
// between re-joined with "-" naming the connector: so "status-task-a-b-1-"
// is task 1 of "a-b", "status-task-a--1" task 1 of "a-". Kafka keeps a task
// key with an empty connector name ("status-task--1") under connector "",
// which no connector can have; the JSON contract (json-output.md) makes any
// key with an empty connector name a problem, so here it is not Valid. A topic
// key is the text from its prefix to the first ':' (not empty), then the
// connector from 11 UTF-16 units after that ':' (":connector-", unchecked),
// not empty.
func ParseStatusKey[K string | []byte](key K) StatusKey[K] {
	var k StatusKey[K]
	parseStatusKey(key, &k)
	return k
}

// parseStatusKey is ParseStatusKey writing into k (zero on entry), which
// spares the decoder's hot path copies of the result.
func parseStatusKey[K string | []byte](key K, k *StatusKey[K]) {
	k.Kind = statusKeyKind(key)
	switch k.Kind {
	case StatusKeyConnector:
		k.Connector = key[len(prefixStatusConnector):]
		if len(k.Connector) == 0 {
			k.bad = badStatusConnectorName
		}
	case StatusKeyTask:
		name, n, ok := taskKey(key, len(prefixStatusTask))
		switch {
		case !ok:
			k.bad = badStatusTaskNumber
		case len(name) == 0:
			k.bad = badStatusTaskName
		default:
			k.Connector, k.Task = name, n
		}
	case StatusKeyTopic:
		topic, connector, ok := topicKey(key[len(prefixStatusTopic):])
		if !ok {
			k.bad = badStatusTopic
			return
		}
		k.Topic, k.Connector = topic, connector
	default:
		k.bad = badStatusPrefix
	}
}

// statusKeyKind is the kind key's prefix names.
func statusKeyKind[K string | []byte](key K) StatusKeyKind {
	const status = "status-" // the prefixes' common start
	if !hasPrefix(key, status) || len(key) == len(status) {
		return StatusKeyOther
	}
	switch rest := key[len(status):]; rest[0] {
	case 'c':
		if hasPrefix(rest, prefixStatusConnector[len(status):]) {
			return StatusKeyConnector
		}
	case 't':
		if hasPrefix(rest, prefixStatusTask[len(status):]) {
			return StatusKeyTask
		}
		if hasPrefix(rest, prefixStatusTopic[len(status):]) {
			return StatusKeyTopic
		}
	}
	return StatusKeyOther
}

// ParseStatusRecordKey reads a record's raw key as Kafka does: decoded as
// Java decodes UTF-8 (each malformed sequence one U+FFFD), then parsed. It
// allocates the key's text.
func ParseStatusRecordKey(raw []byte) StatusKey[string] {
	return ParseStatusKey(keyText(raw))
}

// Valid reports whether Kafka reads the key (files its record).
func (k StatusKey[K]) Valid() bool { return k.bad == badStatusNone }

// Is reports whether Kafka reads the key as one of kind.
func (k StatusKey[K]) Is(kind StatusKeyKind) bool { return k.Valid() && k.Kind == kind }

// OfPiece reports whether Kafka reads the key as a connector's or a task's
// status (a piece's; not a topic's).
func (k StatusKey[K]) OfPiece() bool { return k.Is(StatusKeyConnector) || k.Is(StatusKeyTask) }

// TaskRef is the task a valid task key names.
func (k StatusKey[K]) TaskRef() protocol.TaskRef {
	return protocol.TaskRef{Connector: string(k.Connector), Task: k.Task}
}

// Reason is why the record under key is discarded, key quoted ("" when
// Kafka reads it).
func (k StatusKey[K]) Reason(key []byte) string {
	if k.Valid() {
		return ""
	}
	return statusKeyBadText[k.bad] + ": " + strconv.Quote(string(key))
}

// parseConfigTaskKey splits task-<connector>-<n> as Kafka's config store
// does: the same split as a status task key's, with three parts needed.
func parseConfigTaskKey(key string) (string, int32, bool) {
	if !hasPrefix(key, prefixConfigTask) {
		return "", 0, false
	}
	return taskKey(key, len(prefixConfigTask))
}

func hasPrefix[K string | []byte](key K, prefix string) bool {
	return len(key) >= len(prefix) && string(key[:len(prefix)]) == prefix
}

// taskKey is Java's split("-") of key, whose first `fixed` bytes are the
// fixed parts and their dashes: the last part after trailing dashes is the
// number, what lies between names the connector. Splitting at the last
// dash gives the parts' re-join without building them.
func taskKey[K string | []byte](key K, fixed int) (K, int32, bool) {
	end := len(key)
	for end > 0 && key[end-1] == '-' {
		end-- // split drops trailing empty parts
	}
	var none K
	if end <= fixed {
		return none, 0, false
	}
	rest := key[fixed:end]
	dash := lastDash(rest)
	if dash < 0 { // too few parts
		return none, 0, false
	}
	n, ok := javaParseInt(rest[dash+1:])
	if !ok {
		return none, 0, false
	}
	return rest[:dash], n, true
}

// lastDash is the index of s's last '-' (-1 if none), by the library's
// vectorised search.
func lastDash[K string | []byte](s K) int {
	switch s := any(s).(type) {
	case string:
		return strings.LastIndexByte(s, '-')
	case []byte:
		return bytes.LastIndexByte(s, '-')
	}
	return -1
}

// javaParseInt is Integer.parseInt of a part without "-": an optional "+",
// then one or more digits (Character.digit: any decimal digit one UTF-16
// unit long), the value at most 2^31-1.
func javaParseInt[K string | []byte](s K) (int32, bool) {
	i := 0
	if len(s) > 0 && s[0] == '+' {
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	var v int64
	for i < len(s) {
		d, size := int(s[i]-'0'), 1
		if d > 9 { // not an ASCII digit (c-'0' wrapped below zero too)
			d, size = javaDigit(s[i:])
		}
		if d < 0 {
			return 0, false
		}
		v = v*10 + int64(d)
		if v > 1<<31-1 {
			return 0, false
		}
		i += size
	}
	return int32(v), true
}

// javaDigit is the value of the decimal digit s starts with and its length
// in bytes, -1 when s starts with none. Beyond ASCII it is a character of
// Unicode's Nd category in the Basic Multilingual Plane (a supplementary
// character is two UTF-16 units to Java, neither a digit); Nd characters
// come in runs of ten, zero first, so the value is the offset in the run.
func javaDigit[K string | []byte](s K) (int, int) {
	if c := s[0]; c < utf8.RuneSelf {
		if c >= '0' && c <= '9' {
			return int(c - '0'), 1
		}
		return -1, 1
	}
	var head [utf8.UTFMax]byte
	m := copy(head[:], s[:min(len(s), utf8.UTFMax)])
	r, size := utf8.DecodeRune(head[:m])
	if r == utf8.RuneError || r > 0xFFFF {
		return -1, size
	}
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, size
		}
	}
	return -1, size
}

// topicKey splits what follows "status-topic-": the topic up to the first
// ':' (not empty); the connector starts 11 UTF-16 units (":connector-")
// after that ':', whatever those units are, and is not empty.
func topicKey[K string | []byte](rest K) (topic, connector K, ok bool) {
	var none K
	colon := -1
	for i := 0; i < len(rest); i++ {
		if rest[i] == ':' {
			colon = i
			break
		}
	}
	if colon <= 0 {
		return none, none, false
	}
	topic = rest[:colon]
	units, j := 0, colon
	for units < len(":connector-") && j < len(rest) {
		c := rest[j]
		switch {
		case c < utf8.RuneSelf:
			j++
		case c >= 0xF0: // four bytes: a surrogate pair
			units++
			j += 4
		case c >= 0xE0:
			j += 3
		default:
			j += 2
		}
		units++
	}
	switch {
	case units < len(":connector-") || j >= len(rest) && units == len(":connector-"):
		return none, none, false
	case units > len(":connector-"):
		// Java cut a surrogate pair in half; the lone low surrogate
		// becomes U+FFFD when the key is printed as UTF-8.
		return topic, K("\uFFFD" + string(rest[min(j, len(rest)):])), true
	}
	return topic, rest[j:], true
}
