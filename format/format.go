// Package format turns a command's typed result into a table, JSON, JSONL,
// YAML, or the output of a --jq expression. It depends on nothing of ours.
//
// Every command hands its result to Write; the machine formats (json, jsonl,
// yaml, --jq) all start from the result's encoding/json form, so their field
// names and order are the JSON contract and cannot drift apart. A result that
// writes its own JSON (JSONWriter) is trusted to keep to that form for -o json.
package format

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Options choose how a result is printed.
type Options struct {
	Output  string // table (default when empty), wide, json, jsonl, yaml, schema, or a result's own format
	JQ      string // gojq expression run on the JSON form; when set, Output only has to be valid
	NoColor bool   // never colour tables
	// ForceColor colours tables even when w is not a terminal (tests, and a
	// future --color=always). NoColor wins over it.
	ForceColor bool
	// Width is the width default tables fit, shortening long cells
	// (TerminalWidth gives it); 0 means no limit. -o wide never shortens.
	Width int
	// NoHeaders leaves out titles, column headers and footers: only rows,
	// for scripts (kubectl's --no-headers).
	NoHeaders bool
	// JQVars are the --jq expression's $NAME variables (--arg, --argjson).
	JQVars []JQVar
	// Terminal says the output is a terminal (tests; Write also asks w):
	// --jq strings are then escaped as EscapeText does.
	Terminal bool
	// Context ends a write early (Ctrl-C): the output stops at its next
	// write, and a --jq expression that loops or builds a huge value within
	// its next step, not at the process's grace deadline. nil never ends it.
	Context context.Context
}

// Table is one table of a result.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Wide   []int // indexes of columns shown only with -o wide
	// Footer holds notes printed under the table, one line each (record
	// counts, problems worth a glance).
	Footer []string
	// Key lists the columns that identify a row (NAME, ID, WORKER): fitting
	// a table to the terminal never cuts them, as kubectl never cuts NAME.
	// Empty means the first column.
	Key []int
	// Drop lists the columns a narrow terminal may leave out, the first
	// given first, before any value is cut; a note says which were left out.
	Drop []int
	// Wrap lists the columns of prose (messages) that fitting wraps onto
	// more lines instead of cutting.
	Wrap []int
	// WideOnly tables are printed only with -o wide (the detail under a
	// summary: a plan's rounds).
	WideOnly bool
}

// Tabler is implemented by results that can be shown as tables.
type Tabler interface{ Tables() []Table }

// Lister is implemented by results that print one JSON line per item with -o jsonl.
type Lister interface{ Items() []any }

// Items is a list's elements as a Lister gives them: one JSON line each.
func Items[T any](list []T) []any {
	out := make([]any, len(list))
	for i := range list {
		out[i] = list[i]
	}
	return out
}

// JSONWriter is implemented by results that write their own indented JSON
// form, faster than encoding/json's reflection (plan's replay output runs to
// tens of megabytes). -o json uses it when there is no --jq; the text must be
// valid JSON with the same fields as the result's encoding/json form.
type JSONWriter interface{ WriteJSON(w io.Writer) error }

// Extra is implemented by results that offer output formats of their own
// (plan's mermaid diagram, for example). The names join the built-in ones in
// -o and in the list an unknown format error shows.
type Extra interface {
	ExtraFormats() []string
	WriteExtra(w io.Writer, format string) error
}

// Built-in output formats, in the order help and errors list them.
const (
	OutputTable  = "table"
	OutputWide   = "wide"
	OutputJSON   = "json"
	OutputJSONL  = "jsonl"
	OutputYAML   = "yaml"
	OutputSchema = "schema" // the JSON form's fields and types, without the values
)

// Outputs lists the built-in output formats.
func Outputs() []string {
	return []string{OutputTable, OutputWide, OutputJSON, OutputJSONL, OutputYAML, OutputSchema}
}

// UsageError is a mistake in how connectscope was asked to print: an unknown
// output format or a --jq expression that does not parse, compile or run.
// Callers map it to the usage exit status.
type UsageError struct {
	Flag    string // the flag at fault: "--jq" or "--output"
	Problem string // what is wrong, one line
}

func (e *UsageError) Error() string { return e.Flag + ": " + e.Problem }

// CheckOutput reports whether name is a built-in format or one of extra,
// before any work is done, so a typo fails fast.
func CheckOutput(name string, extra ...string) error {
	if name == "" {
		return nil
	}
	allowed := append(Outputs(), extra...)
	for _, a := range allowed {
		if a == name {
			return nil
		}
	}
	return &UsageError{Flag: "--output", Problem: fmt.Sprintf("unknown output format %q: use one of %s", name, strings.Join(allowed, ", "))}
}

// Write prints result to w as opts say.
func Write(w io.Writer, result any, opts Options) error {
	if opts.Context != nil {
		// A big result takes seconds to write: Ctrl-C ends it at its next
		// write, not at the process's grace deadline.
		w = cancelWriter{opts.Context, w}
	}
	var extra []string
	if x, ok := result.(Extra); ok {
		extra = x.ExtraFormats()
		sort.Strings(extra)
	}
	if err := CheckOutput(opts.Output, extra...); err != nil {
		return err
	}
	if opts.JQ != "" {
		run := jqRun{ctx: opts.Context, expr: opts.JQ, vars: opts.JQVars, terminal: opts.Terminal || IsTerminal(w)}
		if opts.Output == OutputJSONL {
			// Each line of the jsonl output is one jq input, as piping it
			// through jq would make it.
			return run.writeLines(w, jsonlItems(result))
		}
		return run.writeLines(w, []any{result})
	}
	switch opts.Output {
	case OutputJSON, OutputJSONL, OutputYAML:
		// Text a terminal acts on stays text: see RuneEscaper.
		e := NewRuneEscaper(w)
		if err := writeMachine(e, result, opts.Output); err != nil {
			return err
		}
		return e.Flush()
	case "", OutputTable, OutputWide:
		t, ok := result.(Tabler)
		if !ok {
			// A result without a table view is still readable as YAML.
			return writeYAML(w, result)
		}
		width := opts.Width
		if opts.NoHeaders {
			width = 0 // rows for scripts: never shortened, dropped or wrapped to a terminal
		}
		return writeTables(w, t.Tables(), tableStyle{wide: opts.Output == OutputWide, color: useColor(w, opts), width: width, noHeaders: opts.NoHeaders})
	case OutputSchema:
		return writeSchema(w, result)
	default:
		return result.(Extra).WriteExtra(w, opts.Output)
	}
}

// writeMachine prints result as JSON, JSON lines or YAML.
func writeMachine(w io.Writer, result any, output string) error {
	switch output {
	case OutputJSON:
		if jw, ok := result.(JSONWriter); ok {
			return jw.WriteJSON(w)
		}
		return writeJSON(w, result)
	case OutputJSONL:
		return writeJSONL(w, result)
	}
	return writeYAML(w, result)
}

// useColor is true only for a terminal that has not asked for plain text.
func useColor(w io.Writer, opts Options) bool {
	if opts.NoColor {
		return false
	}
	if opts.ForceColor {
		return true
	}
	return IsTerminal(w) && os.Getenv("TERM") != "dumb"
}

// IsTerminal reports whether w is a character device (a terminal), the test
// the standard library allows without a terminal package.
func IsTerminal(w io.Writer) bool {
	if c, ok := w.(cancelWriter); ok {
		w = c.Writer
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// cancelWriter fails every write once its context is done.
type cancelWriter struct {
	context.Context
	io.Writer
}

func (c cancelWriter) Write(p []byte) (int, error) {
	if err := c.Err(); err != nil {
		return 0, err
	}
	return c.Writer.Write(p)
}
