package protocol

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// maxWireString is the longest string Kafka's classic struct encoding can
// carry (int16 length); Kafka's writers refuse anything longer.
const maxWireString = 32767

// DecodeError says which field of a Connect protocol blob could not be read
// and why. Kafka aborts the whole decode on such an error; we keep the
// fields decoded before it and report this.
type DecodeError struct {
	Blob   string // "assignment", "metadata" or "metadata allocation"
	Field  string // e.g. "leader", "assigned[1].tasks"
	Offset int    // byte offset where the field starts
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: reading %s at byte %d: %s", e.Blob, e.Field, e.Offset, e.Reason)
}

// wireReader reads Kafka's classic big-endian struct encoding and turns every
// short read into a DecodeError naming the field.
type wireReader struct {
	buf      []byte
	pos      int
	blob     string
	warnings []string
}

func (r *wireReader) left() int { return len(r.buf) - r.pos }

func (r *wireReader) fail(field, format string, args ...any) error {
	return &DecodeError{Blob: r.blob, Field: field, Offset: r.pos, Reason: fmt.Sprintf(format, args...)}
}

func (r *wireReader) warn(format string, args ...any) {
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

func (r *wireReader) need(field string, n int) error {
	if r.left() < n {
		return r.fail(field, "truncated: needs %d bytes, %d left", n, r.left())
	}
	return nil
}

func (r *wireReader) int16(field string) (int16, error) {
	if err := r.need(field, 2); err != nil {
		return 0, err
	}
	v := int16(binary.BigEndian.Uint16(r.buf[r.pos:]))
	r.pos += 2
	return v, nil
}

func (r *wireReader) int32(field string) (int32, error) {
	if err := r.need(field, 4); err != nil {
		return 0, err
	}
	v := int32(binary.BigEndian.Uint32(r.buf[r.pos:]))
	r.pos += 4
	return v, nil
}

func (r *wireReader) int64(field string) (int64, error) {
	if err := r.need(field, 8); err != nil {
		return 0, err
	}
	v := int64(binary.BigEndian.Uint64(r.buf[r.pos:]))
	r.pos += 8
	return v, nil
}

// str reads an int16-length string. Invalid UTF-8 is not an error in Kafka
// (Java replaces it), so it is replaced the same way and noted.
func (r *wireReader) str(field string) (string, error) {
	start := r.pos
	n, err := r.int16(field + " length")
	if err != nil {
		return "", err
	}
	if n < 0 {
		r.pos = start
		return "", r.fail(field, "negative string length %d", n)
	}
	if r.left() < int(n) {
		r.pos = start
		return "", r.fail(field, "truncated: string length %d, %d bytes left", n, r.left())
	}
	raw := r.buf[r.pos : r.pos+int(n)]
	r.pos += int(n)
	s, replaced := JavaUTF8(raw)
	if replaced {
		r.warn("%s is not valid UTF-8; malformed bytes replaced by U+FFFD", field)
	}
	return s, nil
}

// JavaUTF8 decodes b the way Java's UTF-8 decoder with REPLACE does: each
// maximal ill-formed subsequence becomes one U+FFFD (Go's own conversion
// would emit one per byte).
func JavaUTF8(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		i += maximalSubpart(b[i:])
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return string(out), true
}

// maximalSubpart returns the length of the ill-formed sequence starting at
// b[0] (Unicode's "maximal subpart" rule): a valid lead byte plus as many
// valid continuation bytes as follow it, or 1.
func maximalSubpart(b []byte) int {
	lead := b[0]
	var want int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		want = 1
	case lead == 0xE0:
		want, lo = 2, 0xA0
	case lead == 0xED:
		want, hi = 2, 0x9F
	case lead >= 0xE1 && lead <= 0xEF:
		want = 2
	case lead == 0xF0:
		want, lo = 3, 0x90
	case lead == 0xF4:
		want, hi = 3, 0x8F
	case lead >= 0xF1 && lead <= 0xF3:
		want = 3
	default:
		return 1
	}
	n := 1
	for k := 0; k < want && n < len(b); k++ {
		c := b[n]
		if c < lo || c > hi {
			break
		}
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// wireWriter appends Kafka's classic struct encoding.
type wireWriter struct {
	buf  []byte
	blob string
}

func (w *wireWriter) int16(v int16) { w.buf = binary.BigEndian.AppendUint16(w.buf, uint16(v)) }
func (w *wireWriter) int32(v int32) { w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(v)) }
func (w *wireWriter) int64(v int64) { w.buf = binary.BigEndian.AppendUint64(w.buf, uint64(v)) }

func (w *wireWriter) str(field, s string) error {
	if len(s) > maxWireString {
		return fmt.Errorf("%s: %s is %d bytes, longer than the %d a Kafka string can hold", w.blob, field, len(s), maxWireString)
	}
	w.int16(int16(len(s)))
	w.buf = append(w.buf, s...)
	return nil
}
