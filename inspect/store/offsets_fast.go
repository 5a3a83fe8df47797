package store

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// Hand-written JSON scanning for the offsets topic, where a million records
// through encoding/json cost seconds. Each function either gives exactly
// what the encoding/json based code would, or says it is unsure (ok false)
// so the caller falls back to that code. FuzzOffsetsFastPath holds them to it.

// jsonValid is json.Valid.
func jsonValid(b []byte) bool {
	valid, sure := jsonscan.Valid(b)
	if !sure {
		return json.Valid(b)
	}
	return valid
}

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
	i, ok := jsonscan.Punct(key, 0, '[')
	if !ok || i >= len(key) || key[i] != '"' {
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
	partStart, ok := jsonscan.Punct(key, i+1, ',')
	if !ok || partStart >= len(key) || key[partStart] != '{' {
		return no, false
	}
	partEnd, _ := jsonscan.Value(key, partStart, 1)
	if partEnd < 0 {
		return no, false
	}
	i = jsonscan.Space(key, partEnd)
	if i >= len(key) || key[i] != ']' || jsonscan.Space(key, i+1) != len(key) {
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
	if i < 0 || i >= len(c.b) || depth > jsonscan.MaxDepth {
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
		if _, end, ok := jsonscan.Scalar(c.b, i); ok {
			return end
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
	for first, more := true, true; more; first = false {
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
		i, more = c.after(c.value(end+1, depth), '}')
	}
	return i
}

func (c *canonicalScanner) array(i, depth int) int {
	i++
	if i < len(c.b) && c.b[i] == ']' {
		return i + 1
	}
	for more := true; more; {
		i, more = c.after(c.value(i, depth), ']')
	}
	return i
}

// after reads what follows a member or an element that ended at i (-1: it
// was bad): at a ',' the position of the next one and more; at close the
// position after it; anything else -1.
func (c *canonicalScanner) after(i int, close byte) (next int, more bool) {
	switch {
	case i < 0 || i >= len(c.b):
		return -1, false
	case c.b[i] == ',':
		return i + 1, true
	case c.b[i] == close:
		return i + 1, false
	}
	return -1, false
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
