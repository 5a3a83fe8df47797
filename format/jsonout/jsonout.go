// Package jsonout is the one streaming JSON writer of the outputs too large
// for encoding/json's reflection (offsets results, plan replays, snapshot
// files): bytes are appended to a buffer that goes out in 64 KiB pieces,
// and the first write error is kept so the layout code stays linear.
package jsonout

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"
)

// flushAt is the size at which MaybeFlush hands the buffer to the writer.
const flushAt = 1 << 16

// Writer appends JSON text to B and writes it to its output in pieces. A
// Writer without output (New(nil, 0)) only collects B.
type Writer struct {
	B   []byte
	out *bufio.Writer
	err error
}

// New returns a Writer to out through a buffer of size bytes.
func New(out io.Writer, size int) *Writer {
	w := &Writer{}
	if out != nil {
		w.out = bufio.NewWriterSize(out, size)
	}
	return w
}

// Raw appends text as it is.
func (w *Writer) Raw(text string) { w.B = append(w.B, text...) }

// String appends s as a JSON string.
func (w *Writer) String(s string) { w.B = AppendString(w.B, s) }

// Newline appends a line break and depth two-space indents.
func (w *Writer) Newline(depth int) { w.B = AppendNewline(w.B, depth) }

// Fail keeps err as the Writer's error unless it already has one.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Err is the first error so far.
func (w *Writer) Err() error { return w.err }

// MaybeFlush writes B out once it has grown past 64 KiB.
func (w *Writer) MaybeFlush() {
	if w.out != nil && len(w.B) >= flushAt && w.err == nil {
		_, w.err = w.out.Write(w.B)
		w.B = w.B[:0]
	}
}

// Close writes what is left and flushes, returning the first error.
func (w *Writer) Close() error {
	if w.out == nil || w.err != nil {
		return w.err
	}
	if _, err := w.out.Write(w.B); err != nil {
		return err
	}
	w.B = w.B[:0]
	return w.out.Flush()
}

// Plain reports whether s can stand between quotes as it is (encoding/json
// would write it unchanged).
func Plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// AppendString appends s as a JSON string, as encoding/json writes it
// without HTML escaping.
func AppendString(b []byte, s string) []byte {
	if Plain(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// AppendNewline appends a line break and depth two-space indents.
func AppendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

// AppendIndented appends valid JSON src as json.Indent (prefix "", indent
// "  ") lays it out when it starts at nesting depth: white space between
// tokens dropped, one member or element a line, {} and [] kept.
func AppendIndented(b, src []byte, depth int) []byte {
	needIndent, inString, escaped := false, false, false
	for _, c := range src {
		if inString {
			b = append(b, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			b = AppendNewline(b, depth)
		}
		switch c {
		case '"':
			inString = true
			b = append(b, c)
		case '{', '[':
			needIndent = true // an empty object or array stays {} / []
			b = append(b, c)
		case ',':
			b = append(b, c)
			b = AppendNewline(b, depth)
		case ':':
			b = append(b, ':', ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				b = AppendNewline(b, depth)
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return b
}
