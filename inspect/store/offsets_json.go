package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/connectscope/connectscope/format/jsonout"
)

// An offsets topic can hold hundreds of thousands of source partitions: -o json
// printed through encoding/json's reflection and re-indentation took a third
// of `inspect offsets`' time and 170 MB for 100,000 offsets. WriteJSON prints
// the same bytes (TestOffsetsWriteJSONMatchesEncoder) directly.

// WriteJSON writes the result as format's -o json does (encoding/json,
// two-space indent, no HTML escaping), byte for byte.
func (r *OffsetsResult) WriteJSON(out io.Writer) error {
	w := offsetsJSONWriter{jsonout.New(out, 1<<16)}
	w.Raw("{\n  \"topic\": ")
	w.String(r.Topic)
	w.Raw(",\n  \"offsets\": ")
	switch {
	case r.Offsets == nil:
		w.Raw("null")
	case len(r.Offsets) == 0:
		w.Raw("[]")
	default:
		for i := range r.Offsets {
			if i == 0 {
				w.Raw("[\n    ")
			} else {
				w.Raw(",\n    ")
			}
			w.offset(&r.Offsets[i])
			w.MaybeFlush()
		}
		w.Raw("\n  ]")
	}
	w.Raw(",\n  \"records\": ")
	w.reflected(r.Records)
	w.Raw(",\n  \"problems\": ")
	w.reflected(r.Problems)
	w.Raw("\n}\n")
	return w.Close()
}

// offsetsJSONWriter lays out an offsets result on the shared writer.
type offsetsJSONWriter struct{ *jsonout.Writer }

// offset writes one SourceOffset at nesting depth 2 (an item of "offsets").
func (w offsetsJSONWriter) offset(o *SourceOffset) {
	w.Raw("{\n      \"connector\": ")
	w.String(o.Connector)
	w.Raw(",\n      \"partition\": ")
	w.raw(o.Partition, 3)
	w.Raw(",\n      \"offset\": ")
	w.raw(o.Offset, 3)
	w.Raw(",\n      \"kafka_partition\": ")
	w.B = strconv.AppendInt(w.B, int64(o.KafkaPartition), 10)
	w.Raw(",\n      \"kafka_offset\": ")
	w.B = strconv.AppendInt(w.B, o.KafkaOffset, 10)
	w.Raw("\n    }")
}

// raw writes JSON the connector wrote, as encoding/json prints a
// json.RawMessage: null when absent, an error when not valid JSON.
func (w offsetsJSONWriter) raw(raw json.RawMessage, depth int) {
	if raw == nil {
		w.Raw("null")
		return
	}
	if !jsonValid(raw) {
		w.Fail(fmt.Errorf("encoding result as JSON: invalid raw JSON %.40q", raw))
		return
	}
	w.B = jsonout.AppendIndented(w.B, raw, depth)
}

// reflected writes v through encoding/json, for the small parts of the
// result (and the problems, which are few when the topic is healthy).
func (w offsetsJSONWriter) reflected(v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.Fail(fmt.Errorf("encoding result as JSON: %w", err))
		return
	}
	w.B = jsonout.AppendIndented(w.B, bytes.TrimRight(buf.Bytes(), "\n"), 1)
}
