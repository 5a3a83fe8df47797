package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// marshalJSON is encoding/json without HTML escaping: our output goes to
// terminals and scripts, where "<" and "&" should read as themselves.
func marshalJSON(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding result as JSON: %w", err)
	}
	return buf.Bytes(), nil // ends in a newline, as Encode writes one
}

// writeJSON prints the indented form of result as it walks it
// (streamJSON): the same bytes as marshalJSON, without holding them all.
func writeJSON(w io.Writer, result any) error { return streamJSON(w, result) }

// writeJSONL prints one compact line per item of a Lister, or the whole
// result on one line otherwise, each as it walks it: a plan of a thousand
// workers (527 MB on its one line) was held whole, 3 GB at the peak.
func writeJSONL(w io.Writer, result any) error {
	return streamJSONLines(w, jsonlItems(result))
}

// jsonlItems are the values -o jsonl prints, one a line.
func jsonlItems(result any) []any {
	if l, ok := result.(Lister); ok {
		return l.Items()
	}
	return []any{result}
}
