package store

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// The keys of the config and status topics' records, split as Kafka's
// backing stores split them.

// parseConfigTaskKey splits task-<connector>-<n> as Kafka does: Java's
// split("-") (trailing empty parts dropped), at least 3 parts, the last an int.
func parseConfigTaskKey(key string) (string, int32, bool) {
	return splitTaskKey(key, 3)
}

// splitTaskKey implements Kafka's task-key parsing for "task-…" (minParts 3)
// and "status-task-…" (minParts 4): the last part is the task number and the
// parts between the fixed leading ones and it, re-joined with "-", name the
// connector.
func splitTaskKey(key string, minParts int) (string, int32, bool) {
	trimmed := strings.TrimRight(key, "-") // Java's split drops trailing empty strings
	parts := strings.Split(trimmed, "-")
	if trimmed == "" || len(parts) < minParts {
		return "", 0, false
	}
	n, ok := javaParseInt(parts[len(parts)-1])
	if !ok {
		return "", 0, false
	}
	return strings.Join(parts[minParts-2:len(parts)-1], "-"), n, true
}

// javaParseInt accepts what Integer.parseInt does for ASCII input: an
// optional sign and decimal digits that fit 32 bits.
func javaParseInt(s string) (int32, bool) {
	if s == "" || s == "+" || s == "-" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// parseStatusTaskKey splits status-task-<connector>-<n> as Kafka does
// (Java split on "-", trailing empty parts dropped, at least 4 parts).
func parseStatusTaskKey(key []byte) (connector []byte, task int32, ok bool) {
	trimmed := bytes.TrimRight(key, "-")
	if len(trimmed) <= len(prefixStatusTask) {
		return nil, 0, false
	}
	rest := trimmed[len(prefixStatusTask):]
	dash := bytes.LastIndexByte(rest, '-')
	if dash < 0 {
		return nil, 0, false
	}
	n, ok := javaParseIntBytes(rest[dash+1:])
	if !ok {
		return nil, 0, false
	}
	return rest[:dash], n, true
}

// javaParseIntBytes is Integer.parseInt for ASCII input, without allocating.
func javaParseIntBytes(b []byte) (int32, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg = true
		b = b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) > 11 {
		return 0, false
	}
	n, ok := jsonscan.Digits(b)
	if !ok {
		return 0, false
	}
	if neg {
		n = -n
	}
	if n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int32(n), true
}
