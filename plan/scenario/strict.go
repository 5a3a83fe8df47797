package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// encoding/json passes over two things in a scenario silently: a key given
// twice in one object (the last wins: {"orders": 4, "orders": 8} plans 8
// tasks) and a second value after the first (dropped). Both are steps or
// settings the author wrote that the plan would lack, so both are refused,
// as YAML scenarios refuse them.

// jsonLevel is one open object or array of strictJSON's walk.
type jsonLevel struct {
	keys    map[string]bool // an object's keys so far; nil for an array
	wantKey bool            // an object's next string is a key
	key     string          // an object's current key
	index   int             // an array's current element
}

// strictJSON reports the first key given twice, with its place
// (steps[0].connectors), or anything but white space and # comments after
// the first JSON value. What is not JSON (a syntax error, YAML's flow
// style) is left to the decoders that follow: nil here. It walks the
// bytes once; encoding/json's token API took longer than the replay of a
// 60,000-connector scenario.
func strictJSON(data []byte) error {
	var stack []*jsonLevel
	for i := 0; i < len(data); {
		switch c := data[i]; c {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
			continue
		case '{', '[':
			l := &jsonLevel{}
			if c == '{' {
				l.keys, l.wantKey = map[string]bool{}, true
			}
			stack = append(stack, l)
			i++
			continue
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			stack = stack[:len(stack)-1]
			i++
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return nil
			}
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				key, ok := jsonKey(data[i:end])
				if !ok {
					return nil
				}
				l := stack[n-1]
				if l.keys[key] {
					return &ScenarioError{Step: -1, Msg: fmt.Sprintf("%s: key %q given twice (the plan would take the last): give it once", placeOf(stack), key)}
				}
				l.keys[key], l.key, l.wantKey = true, key, false
				i = end
				continue
			}
			i = end
		default:
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				return nil // an unquoted key: YAML's flow style
			}
			for i < len(data) && !strings.ContainsRune(" \t\r\n,:]}", rune(data[i])) {
				i++
			}
		}
		// A value ended: its container moves on, or the document ends.
		if len(stack) == 0 {
			if rest := afterValue(data[i:]); len(rest) > 0 {
				return &ScenarioError{Step: -1, Msg: fmt.Sprintf("more after the scenario's object (byte %d): give one scenario per file", len(data)-len(rest))}
			}
			return nil
		}
		if l := stack[len(stack)-1]; l.keys != nil {
			l.wantKey = true
		} else {
			l.index++
		}
	}
	return nil
}

// stringEnd is the index just past the JSON string that starts at
// data[start] (a quote), or -1 when it does not end.
func stringEnd(data []byte, start int) int {
	for i := start + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// jsonKey is a quoted key's text; escapes are rare in keys and decoded by
// encoding/json.
func jsonKey(quoted []byte) (string, bool) {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1]), true
	}
	var key string
	return key, json.Unmarshal(quoted, &key) == nil
}

// afterValue is what follows a document's value once white space and #
// comments (which a YAML reader of the file would pass over) are skipped.
func afterValue(rest []byte) []byte {
	for {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		if len(rest) == 0 || rest[0] != '#' {
			return rest
		}
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil
		}
		rest = rest[nl:]
	}
}

// placeOf names the innermost open object of stack as a path:
// steps[0].connectors, or "the top level".
func placeOf(stack []*jsonLevel) string {
	var b strings.Builder
	for _, l := range stack[:len(stack)-1] {
		if l.keys != nil {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(l.key)
		} else {
			b.WriteString("[" + strconv.Itoa(l.index) + "]")
		}
	}
	if b.Len() == 0 {
		return "the top level"
	}
	return b.String()
}
