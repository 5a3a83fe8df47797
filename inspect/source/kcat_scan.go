package source

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// kcatScanner walks one line of JSON. It understands exactly the JSON
// grammar (RFC 8259) but keeps string bytes as they are, so record bytes
// that are not valid UTF-8 survive.
type kcatScanner struct {
	b       []byte
	pos     int
	nameBuf []byte // unescape buffer for field names and skipped strings
}

const kcatMaxDepth = 256

func (k *kcatReader) scanEnvelope(line []byte) error {
	s := &k.scan
	s.b, s.pos = line, 0
	s.ws()
	if !s.eat('{') {
		return errors.New("not a JSON object")
	}
	s.ws()
	if s.eat('}') {
		return s.end()
	}
	e := &k.env
	// A field may repeat; as in encoding/json the last one counts, so a
	// value of the wrong type is held against its field until a later
	// value of that field replaces it.
	var wrong [envFields]error
	for {
		s.ws()
		name, err := s.str(&s.nameBuf)
		if err != nil {
			return fmt.Errorf("field name: %w", err)
		}
		s.ws()
		if !s.eat(':') {
			return s.errf("expected ':' after field %q", name)
		}
		s.ws()
		valueAt, field := s.pos, envField(name)
		switch field {
		case envTopic:
			e.topic, err = s.str(&k.scratch[0])
			e.hasTopic = err == nil
		case envPartition:
			e.partition, err = s.int("partition")
			e.hasPartition = err == nil
		case envOffset:
			e.offset, err = s.int("offset")
			e.hasOffset = err == nil
		case envTs:
			e.ts, err = s.int("ts")
			e.hasTs = err == nil
		case envKey:
			e.key, e.keyNull, err = s.strOrNull(&k.scratch[1], "key")
			e.hasKey = err == nil
		case envPayload:
			e.payload, e.payloadNull, err = s.strOrNull(&k.scratch[2], "payload")
			e.hasPayld = err == nil
		default:
			err = s.skip(0)
		}
		if field >= 0 {
			wrong[field] = err
			if err != nil {
				// Still JSON? Then go on: a later value may replace it.
				s.pos = valueAt
				if s.skip(0) != nil {
					return err
				}
				err = nil
			}
		}
		if err != nil {
			return err
		}
		s.ws()
		if s.eat(',') {
			continue
		}
		if s.eat('}') {
			if err := s.end(); err != nil {
				return err
			}
			for _, err := range wrong {
				if err != nil {
					return err
				}
			}
			return nil
		}
		return s.errf("expected ',' or '}'")
	}
}

// The envelope fields kcat writes that we read, in the order their
// problems are reported.
const (
	envTopic = iota
	envPartition
	envOffset
	envTs
	envKey
	envPayload
	envFields
)

// envField is the envelope field a name stands for, -1 for others.
func envField(name []byte) int {
	switch string(name) {
	case "topic":
		return envTopic
	case "partition":
		return envPartition
	case "offset":
		return envOffset
	case "ts":
		return envTs
	case "key":
		return envKey
	case "payload":
		return envPayload
	}
	return -1
}

func (s *kcatScanner) errf(format string, args ...any) error {
	return fmt.Errorf("at column %d: %s", s.pos+1, fmt.Sprintf(format, args...))
}

func (s *kcatScanner) end() error {
	s.ws()
	if s.pos != len(s.b) {
		return s.errf("unexpected text after the JSON object")
	}
	return nil
}

func (s *kcatScanner) ws() { s.pos = jsonscan.Space(s.b, s.pos) }

func (s *kcatScanner) eat(c byte) bool {
	if s.pos < len(s.b) && s.b[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *kcatScanner) lit(word string) bool {
	end, ok := jsonscan.Literal(s.b, s.pos, word)
	s.pos = end
	return ok
}

func (s *kcatScanner) strOrNull(buf *[]byte, field string) ([]byte, bool, error) {
	if s.lit("null") {
		return nil, true, nil
	}
	if s.pos >= len(s.b) || s.b[s.pos] != '"' {
		return nil, false, s.errf("%q is neither a string nor null", field)
	}
	v, err := s.str(buf)
	return v, false, err
}

// str reads a JSON string. Without escapes it returns a slice of the line;
// with escapes it decodes into *buf (reused). \u escapes follow
// encoding/json: surrogate pairs combine, a lone surrogate becomes U+FFFD.
func (s *kcatScanner) str(buf *[]byte) ([]byte, error) {
	if !s.eat('"') {
		return nil, s.errf("expected a string")
	}
	start := s.pos
	s.pos = plainRun(s.b, s.pos)
	if s.pos < len(s.b) {
		switch c := s.b[s.pos]; {
		case c == '"':
			s.pos++
			return s.b[start : s.pos-1], nil
		case c == '\\':
			return s.strEscaped(start, buf)
		default:
			return nil, s.errf("control character 0x%02x in a string", c)
		}
	}
	return nil, s.errf("unterminated string")
}

// strStop marks the bytes that end a run of plain string bytes: the quote,
// the backslash and the control characters.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// plainRun returns the position of the first byte at or after i that ends a
// run of plain string bytes, or len(b).
func plainRun(b []byte, i int) int {
	// Eight bytes at a time while none of them is a quote, a backslash or
	// a control character (the classic has-zero-byte test, which never
	// misses one; a word it flags is finished byte by byte).
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		q, bs := w^(ones*'"'), w^(ones*'\\')
		if ((q-ones)&^q|(bs-ones)&^bs|(w-ones*0x20)&^w)&highs != 0 {
			break
		}
		i += 8
	}
	for i < len(b) && !strStop[b[i]] {
		i++
	}
	return i
}

// strEscaped decodes the rest of a string holding an escape: the plain runs
// between escapes are copied whole, not byte by byte.
func (s *kcatScanner) strEscaped(start int, buf *[]byte) ([]byte, error) {
	out := append((*buf)[:0], s.b[start:s.pos]...)
	defer func() { *buf = out[:0] }()
	for s.pos < len(s.b) {
		if run := plainRun(s.b, s.pos); run > s.pos {
			out = append(out, s.b[s.pos:run]...)
			s.pos = run
			if s.pos >= len(s.b) {
				break
			}
		}
		c := s.b[s.pos]
		switch {
		case c == '"':
			s.pos++
			return out, nil
		case c < 0x20:
			return nil, s.errf("control character 0x%02x in a string", c)
		}
		if s.pos+1 >= len(s.b) {
			return nil, s.errf("unterminated escape")
		}
		esc := s.b[s.pos+1]
		s.pos += 2
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return nil, s.errf("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if s.pos+1 < len(s.b) && s.b[s.pos] == '\\' && s.b[s.pos+1] == 'u' {
					save := s.pos
					s.pos += 2
					if v, ok := s.hex4(); ok {
						r2 = v
					} else {
						return nil, s.errf("bad \\u escape")
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						continue
					}
					s.pos = save // not a pair: the second escape stands alone
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, s.errf("invalid escape \\%c", esc)
		}
	}
	return nil, s.errf("unterminated string")
}

func (s *kcatScanner) hex4() (rune, bool) {
	if s.pos+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.pos : s.pos+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	s.pos += 4
	return r, true
}

// number scans a JSON number and returns its text.
func (s *kcatScanner) number() ([]byte, error) {
	start := s.pos
	end, _, ok := jsonscan.Number(s.b, start)
	s.pos = end
	if ok {
		return s.b[start:end], nil
	}
	if digitsFrom := start + btoi(start < len(s.b) && s.b[start] == '-'); end == digitsFrom {
		return nil, s.errf("expected a value")
	}
	return nil, s.errf("bad number")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *kcatScanner) int(field string) (int64, error) {
	if s.pos < len(s.b) && s.b[s.pos] == '"' {
		return 0, s.errf("%q is a string, not an integer", field)
	}
	text, err := s.number()
	if err != nil {
		return 0, fmt.Errorf("%q: %w", field, err)
	}
	if v, ok := smallInt(text); ok {
		return v, nil
	}
	v, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is %s, not a 64-bit integer", field, text)
	}
	return v, nil
}

// skip passes over any JSON value (fields kcat writes that we do not use).
func (s *kcatScanner) skip(depth int) error {
	if depth > kcatMaxDepth {
		return s.errf("nesting deeper than %d", kcatMaxDepth)
	}
	if s.pos >= len(s.b) {
		return s.errf("expected a value")
	}
	switch s.b[s.pos] {
	case '"':
		_, err := s.str(&s.nameBuf)
		return err
	case '{', '[':
		open := s.b[s.pos]
		closing := byte('}')
		if open == '[' {
			closing = ']'
		}
		s.pos++
		s.ws()
		if s.eat(closing) {
			return nil
		}
		for {
			s.ws()
			if open == '{' {
				if _, err := s.str(&s.nameBuf); err != nil {
					return err
				}
				s.ws()
				if !s.eat(':') {
					return s.errf("expected ':'")
				}
				s.ws()
			}
			if err := s.skip(depth + 1); err != nil {
				return err
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			if s.eat(closing) {
				return nil
			}
			return s.errf("expected ',' or '%c'", closing)
		}
	case 't':
		if s.lit("true") {
			return nil
		}
	case 'f':
		if s.lit("false") {
			return nil
		}
	case 'n':
		if s.lit("null") {
			return nil
		}
	default:
		_, err := s.number()
		return err
	}
	return s.errf("expected a value")
}

// smallInt parses a JSON integer of at most 18 digits (which cannot
// overflow int64) without strconv; ok false leaves it to strconv.
func smallInt(text []byte) (int64, bool) {
	neg := len(text) > 0 && text[0] == '-'
	v, ok := jsonscan.Digits(text[btoi(neg):])
	if neg {
		v = -v
	}
	return v, ok
}
