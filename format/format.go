// Package format turns a command's typed result into a table, JSON, JSONL,
// YAML, or the output of a --jq expression. It depends on nothing of ours.
package format

import (
	"encoding/json"
	"fmt"
	"io"
)

// Options choose how a result is printed.
type Options struct {
	Output  string // table (default), wide, json, jsonl, yaml
	JQ      string // gojq expression run on the JSON form
	NoColor bool
}

// Table is one table of a result.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Wide   []int // indexes of columns shown only with -o wide
	Footer []string
}

// Tabler is implemented by results that can be shown as tables.
type Tabler interface{ Tables() []Table }

// Lister is implemented by results that print one JSON line per item with -o jsonl.
type Lister interface{ Items() []any }

// Write prints result to w as opts say. (Skeleton: the format engineer replaces it.)
func Write(w io.Writer, result any, opts Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(result); err != nil {
		return fmt.Errorf("writing json: %w", err)
	}
	return nil
}
