package store

import (
	"encoding/json"
	"unicode/utf8"
)

// Hand-written JSON scanning for the offsets topic, where a million records
// through encoding/json cost seconds. Each function either gives exactly
// what the encoding/json based code would, or says it is unsure (ok false)
// so the caller falls back to that code. FuzzOffsetsFastPath holds them to it.

// fastJSONMaxDepth bounds the recursion of the scanners; deeper input goes to
// encoding/json (which itself refuses nesting beyond 10,000).
const fastJSONMaxDepth = 256

// jsonValid is json.Valid.
func jsonValid(b []byte) bool {
	s := jsonScanner{b: b}
	end := s.value(s.space(0), 0)
	if s.tooDeep {
		return json.Valid(b)
	}
	return end >= 0 && s.space(end) == len(b)
}

// jsonScanner checks JSON text (RFC 8259 as encoding/json reads it: string
// bytes are not checked for UTF-8). Methods take a position and return the
// position after what they read, or -1 when the text is not valid there.
type jsonScanner struct {
	b       []byte
	tooDeep bool
}

func (s *jsonScanner) space(i int) int {
	for i >= 0 && i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (s *jsonScanner) value(i, depth int) int {
	if i < 0 || i >= len(s.b) {
		return -1
	}
	switch c := s.b[i]; {
	case c == '{':
		return s.object(i, depth+1)
	case c == '[':
		return s.array(i, depth+1)
	case c == '"':
		return s.str(i)
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(i)
	}
	return -1
}

func (s *jsonScanner) object(i, depth int) int {
	if depth > fastJSONMaxDepth {
		s.tooDeep = true
		return -1
	}
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			return -1
		}
		if i = s.space(s.str(i)); i < 0 || i >= len(s.b) || s.b[i] != ':' {
			return -1
		}
		if i = s.value(s.space(i+1), depth); i < 0 {
			return -1
		}
		if i = s.space(i); i >= len(s.b) {
			return -1
		}
		switch s.b[i] {
		case '}':
			return i + 1
		case ',':
			i = s.space(i + 1)
		default:
			return -1
		}
	}
}

func (s *jsonScanner) array(i, depth int) int {
	if depth > fastJSONMaxDepth {
		s.tooDeep = true
		return -1
	}
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1
	}
	for {
		if i = s.value(i, depth); i < 0 {
			return -1
		}
		if i = s.space(i); i >= len(s.b) {
			return -1
		}
		switch s.b[i] {
		case ']':
			return i + 1
		case ',':
			i = s.space(i + 1)
		default:
			return -1
		}
	}
}

// str reads a string starting at its opening quote.
func (s *jsonScanner) str(i int) int {
	if i < 0 {
		return -1
	}
	for i++; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(s.b) {
				return -1
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) {
					return -1
				}
				for _, h := range s.b[i+1 : i+5] {
					if !isHexDigit(h) {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func (s *jsonScanner) literal(i int, word string) int {
	if len(s.b)-i < len(word) || string(s.b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jsonScanner) number(i int) int {
	if s.b[i] == '-' {
		i++
	}
	switch {
	case i < len(s.b) && s.b[i] == '0':
		i++
	case i < len(s.b) && s.b[i] >= '1' && s.b[i] <= '9':
		i = s.digits(i)
	default:
		return -1
	}
	if i < len(s.b) && s.b[i] == '.' {
		if i+1 >= len(s.b) || !isDigit(s.b[i+1]) {
			return -1
		}
		i = s.digits(i + 1)
	}
	if i < len(s.b) && (s.b[i] == 'e' || s.b[i] == 'E') {
		i++
		if i < len(s.b) && (s.b[i] == '+' || s.b[i] == '-') {
			i++
		}
		if i >= len(s.b) || !isDigit(s.b[i]) {
			return -1
		}
		i = s.digits(i)
	}
	return i
}

func (s *jsonScanner) digits(i int) int {
	for i < len(s.b) && isDigit(s.b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// offsetKeySpans locates the connector name's bytes (without quotes) and
// the partition object's in an offsets key.
type offsetKeySpans struct {
	nameStart, nameEnd, partitionStart, partitionEnd int
}

// scanOffsetKey reads the common key shape ["name",{...}] whose name has no
// escapes and is valid UTF-8, so its bytes are the name. ok false means
// "not sure": parseOffsetKey decides, and gives the reason when it is bad.
func scanOffsetKey(key []byte) (offsetKeySpans, bool) {
	var no offsetKeySpans
	s := jsonScanner{b: key}
	i := s.space(0)
	if i >= len(key) || key[i] != '[' {
		return no, false
	}
	i = s.space(i + 1)
	if i >= len(key) || key[i] != '"' {
		return no, false
	}
	nameStart, ascii := i+1, true
	for i = nameStart; i < len(key); i++ {
		c := key[i]
		if c == '"' {
			break
		}
		if c < 0x20 || c == '\\' {
			return no, false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if i >= len(key) {
		return no, false
	}
	name := key[nameStart:i]
	if !ascii && !utf8.Valid(name) {
		return no, false
	}
	i = s.space(i + 1)
	if i >= len(key) || key[i] != ',' {
		return no, false
	}
	partStart := s.space(i + 1)
	if partStart >= len(key) || key[partStart] != '{' {
		return no, false
	}
	partEnd := s.value(partStart, 1)
	if partEnd < 0 {
		return no, false
	}
	i = s.space(partEnd)
	if i >= len(key) || key[i] != ']' || s.space(i+1) != len(key) {
		return no, false
	}
	return offsetKeySpans{nameStart, nameStart + len(name), partStart, partEnd}, true
}

// isCanonicalJSON reports whether valid JSON raw is already what
// canonicalJSON would make of it: compact, object keys strictly increasing,
// strings of printable ASCII without escapes. Anything else is "not sure".
func isCanonicalJSON(raw []byte) bool {
	c := canonicalScanner{b: raw}
	return c.value(0, 0) == len(raw)
}

type canonicalScanner struct{ b []byte }

func (c *canonicalScanner) value(i, depth int) int {
	if i < 0 || i >= len(c.b) || depth > fastJSONMaxDepth {
		return -1
	}
	switch b := c.b[i]; {
	case b == '{':
		return c.object(i, depth+1)
	case b == '[':
		return c.array(i, depth+1)
	case b == '"':
		_, end := c.str(i)
		return end
	default:
		// Numbers and literals keep their text; the input is valid JSON,
		// so scanning them checks nothing more.
		s := jsonScanner{b: c.b}
		switch b {
		case 't':
			return s.literal(i, "true")
		case 'f':
			return s.literal(i, "false")
		case 'n':
			return s.literal(i, "null")
		}
		if b == '-' || isDigit(b) {
			return s.number(i)
		}
		return -1
	}
}

func (c *canonicalScanner) object(i, depth int) int {
	i++
	if i < len(c.b) && c.b[i] == '}' {
		return i + 1
	}
	var prev []byte
	for first := true; ; first = false {
		if i >= len(c.b) || c.b[i] != '"' {
			return -1
		}
		name, end := c.str(i)
		if end < 0 || (!first && string(name) <= string(prev)) {
			return -1
		}
		prev = name
		if end >= len(c.b) || c.b[end] != ':' {
			return -1
		}
		if i = c.value(end+1, depth); i < 0 || i >= len(c.b) {
			return -1
		}
		switch c.b[i] {
		case '}':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

func (c *canonicalScanner) array(i, depth int) int {
	i++
	if i < len(c.b) && c.b[i] == ']' {
		return i + 1
	}
	for {
		if i = c.value(i, depth); i < 0 || i >= len(c.b) {
			return -1
		}
		switch c.b[i] {
		case ']':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

// str reads a string of printable ASCII without escapes, returning its text.
func (c *canonicalScanner) str(i int) ([]byte, int) {
	for j := i + 1; j < len(c.b); j++ {
		switch b := c.b[j]; {
		case b == '"':
			return c.b[i+1 : j], j + 1
		case b < 0x20 || b > 0x7e || b == '\\':
			return nil, -1
		}
	}
	return nil, -1
}
