package store

import (
	"strconv"
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
type StatusKey[K string | []byte] struct {
	Kind      StatusKeyKind
	Connector K     // the connector named (a valid key of any kind)
	Topic     K     // the topic named (StatusKeyTopic)
	Task      int32 // the task number (StatusKeyTask)
	// Bad says why Kafka discards the record ("" when it reads it, a
	// tombstone too).
	Bad string
}

// Why a status key is discarded.
const (
	badStatusPrefix        = "key has no prefix Connect writes to the status topic"
	badStatusConnectorName = "connector status key has an empty connector name"
	badStatusTaskNumber    = "task status key without a task number"
	badStatusTaskName      = "task status key has an empty connector name"
	badStatusTopic         = "topic status key is not status-topic-<topic>:connector-<connector>"
)

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
// key with an empty connector name a problem, so here it is Bad. A topic
// key is the text from its prefix to the first ':' (not empty), then the
// connector from 11 UTF-16 units after that ':' (":connector-", unchecked),
// not empty.
func ParseStatusKey[K string | []byte](key K) StatusKey[K] {
	switch statusKeyKind(key) {
	case StatusKeyConnector:
		name := key[len(prefixStatusConnector):]
		if len(name) == 0 {
			return StatusKey[K]{Kind: StatusKeyConnector, Bad: badStatusConnectorName}
		}
		return StatusKey[K]{Kind: StatusKeyConnector, Connector: name}
	case StatusKeyTask:
		name, n, ok := taskKey(key, len(prefixStatusTask))
		switch {
		case !ok:
			return StatusKey[K]{Kind: StatusKeyTask, Bad: badStatusTaskNumber}
		case len(name) == 0:
			return StatusKey[K]{Kind: StatusKeyTask, Task: n, Bad: badStatusTaskName}
		}
		return StatusKey[K]{Kind: StatusKeyTask, Connector: name, Task: n}
	case StatusKeyTopic:
		topic, connector, ok := topicKey(key[len(prefixStatusTopic):])
		if !ok {
			return StatusKey[K]{Kind: StatusKeyTopic, Bad: badStatusTopic}
		}
		return StatusKey[K]{Kind: StatusKeyTopic, Topic: topic, Connector: connector}
	}
	return StatusKey[K]{Bad: badStatusPrefix}
}

// statusKeyKind is the kind key's prefix names.
func statusKeyKind[K string | []byte](key K) StatusKeyKind {
	switch {
	case hasPrefix(key, prefixStatusConnector):
		return StatusKeyConnector
	case hasPrefix(key, prefixStatusTask):
		return StatusKeyTask
	case hasPrefix(key, prefixStatusTopic):
		return StatusKeyTopic
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
func (k StatusKey[K]) Valid() bool { return k.Bad == "" }

// Is reports whether Kafka reads the key as one of kind.
func (k StatusKey[K]) Is(kind StatusKeyKind) bool { return k.Bad == "" && k.Kind == kind }

// OfPiece reports whether Kafka reads the key as a connector's or a task's
// status (a piece's; not a topic's).
func (k StatusKey[K]) OfPiece() bool { return k.Is(StatusKeyConnector) || k.Is(StatusKeyTask) }

// TaskRef is the task a valid task key names.
func (k StatusKey[K]) TaskRef() protocol.TaskRef {
	return protocol.TaskRef{Connector: string(k.Connector), Task: k.Task}
}

// Reason is why the record under key is discarded, key quoted.
func (k StatusKey[K]) Reason(key []byte) string {
	return k.Bad + ": " + strconv.Quote(string(key))
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
	dash := -1
	for i := len(rest) - 1; i >= 0; i-- {
		if rest[i] == '-' {
			dash = i
			break
		}
	}
	if dash < 0 { // too few parts
		return none, 0, false
	}
	n, ok := javaParseInt(rest[dash+1:])
	if !ok {
		return none, 0, false
	}
	return rest[:dash], n, true
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
		d, size := javaDigit(s[i:])
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
