// Package jsonfile checks a hand-written JSON file (a scenario, a
// restart-times file) for the two things encoding/json passes over
// silently: a key given twice in one object, of which it keeps the last
// ({"orders": 4, "orders": 8} plans 8 tasks), and a second value after the
// first, which a json.Decoder never reads. Both are something the author
// wrote that the reader would lack.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// DuplicateKeyError is a key given twice in one object; Place names the
// object as a path (steps[0].connectors, or "the top level"). Callers add
// what to do instead.
type DuplicateKeyError struct{ Place, Key string }

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("%s: key %q given twice", e.Place, e.Key)
}

// TrailingError is content after the first value; Offset is its byte.
type TrailingError struct{ Offset int }

func (e *TrailingError) Error() string {
	return fmt.Sprintf("more after the first JSON value (byte %d)", e.Offset)
}

// level is one open object or array of Check's walk.
type level struct {
	keys    map[string]bool // an object's keys so far; nil for an array
	wantKey bool            // an object's next string is a key
	key     string          // an object's current key
	index   int             // an array's current element
}

// Check returns the first key given twice, or anything but white space and
// # comments (which a YAML reader of the file passes over) after the first
// value. What is not JSON (a syntax error, YAML's flow style) is left to
// the decoder that follows: nil. It walks the bytes once, with a stack of
// its own rather than recursion; encoding/json's token API took longer than
// the replay of a 60,000-connector scenario.
func Check(data []byte) error {
	var stack []*level
	for i := 0; i < len(data); {
		switch c := data[i]; c {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
			continue
		case '{', '[':
			l := &level{}
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
			end, escaped, ok := jsonscan.String(data, i)
			if !ok {
				return nil
			}
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				key, ok := keyText(data[i:end], escaped)
				if !ok {
					return nil
				}
				l := stack[n-1]
				if l.keys[key] {
					return &DuplicateKeyError{Place: placeOf(stack), Key: key}
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
				return &TrailingError{Offset: len(data) - len(rest)}
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

// keyText is a quoted key's text; escapes are rare in keys and decoded by
// encoding/json.
func keyText(quoted []byte, escaped bool) (string, bool) {
	if !escaped {
		return string(quoted[1 : len(quoted)-1]), true
	}
	var key string
	return key, json.Unmarshal(quoted, &key) == nil
}

// afterValue is what follows a document's value once white space and #
// comments are skipped.
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
func placeOf(stack []*level) string {
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
