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

func (r *wireReader) int16(field string) (int16, error) { return readInt[int16](r, field, 2) }
func (r *wireReader) int32(field string) (int32, error) { return readInt[int32](r, field, 4) }
func (r *wireReader) int64(field string) (int64, error) { return readInt[int64](r, field, 8) }

// readInt reads Kafka's INT16, INT32 or INT64: size bytes, big-endian,
// two's complement.
func readInt[T int16 | int32 | int64](r *wireReader, field string, size int) (T, error) {
	if err := r.need(field, size); err != nil {
		return 0, err
	}
	var v uint64
	for _, b := range r.buf[r.pos : r.pos+size] {
		v = v<<8 | uint64(b)
	}
	r.pos += size
	return T(v), nil
}

// version reads a blob's leading int16 version. A negative one is an
// error at its offset, returned with it.
func (r *wireReader) version() (int16, error) {
	v, err := r.int16("version")
	if err == nil && v < 0 {
		r.pos -= 2
		err = r.fail("version", "negative version %d", v)
	}
	return v, err
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
	for _, l := range utf8Leads {
		if b[0] < l.first || b[0] > l.last {
			continue
		}
		n, lo, hi := 1, l.lo, l.hi
		for k := 0; k < l.follow && n < len(b) && b[n] >= lo && b[n] <= hi; k++ {
			n++
			lo, hi = 0x80, 0xBF
		}
		return n
	}
	return 1
}

// utf8Leads is Unicode's table 3-7 of well-formed UTF-8 by lead byte: how
// many continuation bytes follow it and the range of the first of them
// (the others are 0x80 to 0xBF). Other lead bytes start no sequence.
var utf8Leads = [...]struct {
	first, last byte // the lead bytes
	follow      int
	lo, hi      byte
}{
	{0xC2, 0xDF, 1, 0x80, 0xBF},
	{0xE0, 0xE0, 2, 0xA0, 0xBF},
	{0xE1, 0xEC, 2, 0x80, 0xBF},
	{0xED, 0xED, 2, 0x80, 0x9F},
	{0xEE, 0xEF, 2, 0x80, 0xBF},
	{0xF0, 0xF0, 3, 0x90, 0xBF},
	{0xF1, 0xF3, 3, 0x80, 0xBF},
	{0xF4, 0xF4, 3, 0x80, 0x8F},
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
