// Package jsonscan is the one hand-written JSON scanner of the fast decoding
// paths (offsets and status topic values, kcat dump lines): small functions
// over a byte slice and a position that read the grammar of RFC 8259 as
// encoding/json does (string bytes are not checked for UTF-8). Each returns
// the position after what it read; ok false, or -1, means the text is not
// valid there, and the callers then fall back to encoding/json or report
// the position.
package jsonscan

// MaxDepth bounds the nesting Value follows; deeper input is "not sure"
// (encoding/json itself refuses nesting beyond 10,000).
const MaxDepth = 256

// Space returns the position of the first byte at or after i that is not
// JSON white space.
func Space(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Punct reads the structural byte c ('{', '[', ',', ':' …) after any white
// space at i and returns the position of what follows it, white space
// skipped; ok false when c does not stand there.
func Punct(b []byte, i int, c byte) (next int, ok bool) {
	i = Space(b, i)
	if i >= len(b) || b[i] != c {
		return i, false
	}
	return Space(b, i+1), true
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsHexDigit reports whether c is a hexadecimal digit.
func IsHexDigit(c byte) bool {
	return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// String scans the string whose opening quote is b[i] and returns the
// position past its closing quote; escaped says whether it holds an escape.
func String(b []byte, i int) (end int, escaped bool, ok bool) {
	for j := i + 1; j < len(b); j++ {
		for j < len(b) && !stringStop[b[j]] {
			j++ // plain bytes, the bulk of a string, one table look-up each
		}
		if j >= len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, escaped, true
		case c == '\\':
			escaped = true
			j++
			if j >= len(b) {
				return 0, false, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, false, false
				}
				for _, h := range b[j+1 : j+5] {
					if !IsHexDigit(h) {
						return 0, false, false
					}
				}
				j += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		}
	}
	return 0, false, false
}

// stringStop marks the bytes String must look at: the quote, the backslash
// and the control characters.
var stringStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// Number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at b[i];
// integer says it has neither fraction nor exponent. When it is not a
// number, end is where the grammar broke.
func Number(b []byte, i int) (end int, integer bool, ok bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || !IsDigit(b[i]) {
			return i, false, false
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !IsDigit(b[i]) {
			return i, false, false
		}
		i = digits(b, i)
	}
	return i, integer, true
}

func digits(b []byte, i int) int {
	for i < len(b) && IsDigit(b[i]) {
		i++
	}
	return i
}

// Digits is the value of 1 to 18 ASCII digits, which cannot overflow an
// int64; ok is false for anything else (a sign included), and the callers
// then use strconv or refuse the text.
func Digits(b []byte) (v int64, ok bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	for _, c := range b {
		if !IsDigit(c) {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// Literal reports whether word (true, false, null) stands at b[i].
func Literal(b []byte, i int, word string) (int, bool) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// Kind is the kind of a scalar.
type Kind uint8

// Scalar kinds.
const (
	KindString Kind = iota + 1
	KindInteger
	KindNumber
	KindNull
	KindBool
)

// Scalar scans one scalar at b[i]; objects and arrays are refused.
func Scalar(b []byte, i int) (Kind, int, bool) {
	if i >= len(b) {
		return 0, 0, false
	}
	switch c := b[i]; {
	case c == '"':
		end, _, ok := String(b, i)
		return KindString, end, ok
	case c == 'n':
		end, ok := Literal(b, i, "null")
		return KindNull, end, ok
	case c == 't':
		end, ok := Literal(b, i, "true")
		return KindBool, end, ok
	case c == 'f':
		end, ok := Literal(b, i, "false")
		return KindBool, end, ok
	case c == '-' || IsDigit(c):
		end, integer, ok := Number(b, i)
		if integer {
			return KindInteger, end, ok
		}
		return KindNumber, end, ok
	}
	return 0, 0, false
}

// MemberName scans `"name" :` at b[i], the name without escapes, and
// returns the name and the position of the member's value.
func MemberName(b []byte, i int) (name []byte, value int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	end, escaped, ok := String(b, i)
	if !ok || escaped {
		return nil, 0, false
	}
	value, ok = Punct(b, end, ':')
	if !ok {
		return nil, 0, false
	}
	return b[i+1 : end-1], value, true
}

// NextMember goes on after an object member's value ending at i: at a ','
// it returns the position of the next member's name and more; at the
// closing '}' the position of that brace and not more.
func NextMember(b []byte, i int) (next int, more bool, ok bool) {
	i = Space(b, i)
	if i >= len(b) {
		return i, false, false
	}
	switch b[i] {
	case '}':
		return i, false, true
	case ',':
		return Space(b, i+1), true, true
	}
	return i, false, false
}

// Valid is json.Valid, or sure false when the nesting is beyond MaxDepth.
func Valid(b []byte) (valid, sure bool) {
	end, tooDeep := Value(b, Space(b, 0), 0)
	if tooDeep {
		return false, false
	}
	return end >= 0 && Space(b, end) == len(b), true
}

// Value scans one JSON value at b[i], depth levels down already, and
// returns the position after it, or -1; tooDeep says the nesting went
// beyond MaxDepth (then -1 means "not sure").
func Value(b []byte, i, depth int) (end int, tooDeep bool) {
	v := validator{b: b}
	end = v.value(i, depth)
	return end, v.tooDeep
}

type validator struct {
	b       []byte
	tooDeep bool
}

func (v *validator) value(i, depth int) int {
	if i < 0 || i >= len(v.b) {
		return -1
	}
	var end int
	ok := false
	switch c := v.b[i]; {
	case c == '{':
		return v.container(i, depth+1, '}')
	case c == '[':
		return v.container(i, depth+1, ']')
	case c == '"':
		end, _, ok = String(v.b, i)
	case c == 't':
		end, ok = Literal(v.b, i, "true")
	case c == 'f':
		end, ok = Literal(v.b, i, "false")
	case c == 'n':
		end, ok = Literal(v.b, i, "null")
	case c == '-' || IsDigit(c):
		end, _, ok = Number(v.b, i)
	}
	if !ok {
		return -1
	}
	return end
}

// container reads an object (close '}': members, each a name, a colon and
// a value) or an array (close ']': values) from its opening bracket at i.
func (v *validator) container(i, depth int, close byte) int {
	if depth > MaxDepth {
		v.tooDeep = true
		return -1
	}
	i = Space(v.b, i+1)
	if i < len(v.b) && v.b[i] == close {
		return i + 1
	}
	for {
		if close == '}' {
			if i = v.name(i); i < 0 {
				return -1
			}
		}
		if i = v.value(i, depth); i < 0 {
			return -1
		}
		if i = Space(v.b, i); i >= len(v.b) {
			return -1
		}
		switch v.b[i] {
		case close:
			return i + 1
		case ',':
			i = Space(v.b, i+1)
		default:
			return -1
		}
	}
}

// name reads an object member's name and colon at i: the position of its
// value, or -1.
func (v *validator) name(i int) int {
	if i >= len(v.b) || v.b[i] != '"' {
		return -1
	}
	end, _, ok := String(v.b, i)
	if !ok {
		return -1
	}
	if i = Space(v.b, end); i >= len(v.b) || v.b[i] != ':' {
		return -1
	}
	return Space(v.b, i+1)
}
