package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// An offsets topic can hold hundreds of thousands of source partitions: -o json
// printed through encoding/json's reflection and re-indentation took a third
// of `inspect offsets`' time and 170 MB for 100,000 offsets. WriteJSON prints
// the same bytes (TestOffsetsWriteJSONMatchesEncoder) directly.

// WriteJSON writes the result as format's -o json does (encoding/json,
// two-space indent, no HTML escaping), byte for byte.
func (r *OffsetsResult) WriteJSON(out io.Writer) error {
	w := offsetsJSONWriter{out: bufio.NewWriterSize(out, 1<<16)}
	w.b = append(w.b, "{\n  \"topic\": "...)
	w.b = appendJSONText(w.b, r.Topic)
	w.b = append(w.b, ",\n  \"offsets\": "...)
	switch {
	case r.Offsets == nil:
		w.b = append(w.b, "null"...)
	case len(r.Offsets) == 0:
		w.b = append(w.b, "[]"...)
	default:
		for i := range r.Offsets {
			if i == 0 {
				w.b = append(w.b, "[\n    "...)
			} else {
				w.b = append(w.b, ",\n    "...)
			}
			if err := w.offset(&r.Offsets[i]); err != nil {
				return err
			}
			if err := w.flushIfFull(); err != nil {
				return err
			}
		}
		w.b = append(w.b, "\n  ]"...)
	}
	w.b = append(w.b, ",\n  \"records\": "...)
	if err := w.reflected(r.Records); err != nil {
		return err
	}
	w.b = append(w.b, ",\n  \"problems\": "...)
	if err := w.reflected(r.Problems); err != nil {
		return err
	}
	w.b = append(w.b, "\n}\n"...)
	if _, err := w.out.Write(w.b); err != nil {
		return err
	}
	return w.out.Flush()
}

type offsetsJSONWriter struct {
	out *bufio.Writer
	b   []byte
}

func (w *offsetsJSONWriter) flushIfFull() error {
	if len(w.b) < 1<<16 {
		return nil
	}
	_, err := w.out.Write(w.b)
	w.b = w.b[:0]
	return err
}

// offset writes one SourceOffset at nesting depth 2 (an item of "offsets").
func (w *offsetsJSONWriter) offset(o *SourceOffset) error {
	w.b = append(w.b, "{\n      \"connector\": "...)
	w.b = appendJSONText(w.b, o.Connector)
	w.b = append(w.b, ",\n      \"partition\": "...)
	if err := w.raw(o.Partition, 3); err != nil {
		return err
	}
	w.b = append(w.b, ",\n      \"offset\": "...)
	if err := w.raw(o.Offset, 3); err != nil {
		return err
	}
	w.b = append(w.b, ",\n      \"kafka_partition\": "...)
	w.b = strconv.AppendInt(w.b, int64(o.KafkaPartition), 10)
	w.b = append(w.b, ",\n      \"kafka_offset\": "...)
	w.b = strconv.AppendInt(w.b, o.KafkaOffset, 10)
	w.b = append(w.b, "\n    }"...)
	return nil
}

// raw writes JSON the connector wrote, as encoding/json prints a
// json.RawMessage: null when absent, an error when not valid JSON.
func (w *offsetsJSONWriter) raw(raw json.RawMessage, depth int) error {
	if raw == nil {
		w.b = append(w.b, "null"...)
		return nil
	}
	if !jsonValid(raw) {
		return fmt.Errorf("encoding result as JSON: invalid raw JSON %.40q", raw)
	}
	w.b = appendIndentedJSON(w.b, raw, depth)
	return nil
}

// reflected writes v through encoding/json, for the small parts of the
// result (and the problems, which are few when the topic is healthy).
func (w *offsetsJSONWriter) reflected(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding result as JSON: %w", err)
	}
	w.b = appendIndentedJSON(w.b, bytes.TrimRight(buf.Bytes(), "\n"), 1)
	return nil
}

// appendIndentedJSON appends valid JSON src as json.Indent(prefix "",
// indent "  ") lays it out when it starts at nesting depth: white space
// between tokens dropped, one member or element a line, {} and [] kept.
func appendIndentedJSON(b, src []byte, depth int) []byte {
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
		if isJSONSpace(c) {
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			b = appendJSONNewline(b, depth)
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
			b = appendJSONNewline(b, depth)
		case ':':
			b = append(b, ':', ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				b = appendJSONNewline(b, depth)
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return b
}

func appendJSONNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

// appendJSONText appends s as a JSON string, as encoding/json writes it
// without HTML escaping: plain ASCII as is, anything else through it.
func appendJSONText(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimRight(buf.Bytes(), "\n")...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
