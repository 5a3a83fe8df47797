package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
)

// ANSI sequences are written here rather than through go-pretty's colour
// helpers, whose on/off switch is global state read from the environment;
// go-pretty still measures widths without the escape codes.
const (
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiReset  = "\x1b[0m"
)

// stateColors colours the cells operators scan for: Connect states and
// finding severities. Any other cell is left as it is.
var stateColors = map[string]string{
	"RUNNING":    ansiGreen,
	"FAILED":     ansiRed,
	"UNASSIGNED": ansiYellow,
	"PAUSED":     ansiYellow,
	"STOPPED":    ansiYellow,
	"RESTARTING": ansiYellow,
	"DESTROYED":  ansiRed,
	"error":      ansiRed,
	"warn":       ansiYellow,
}

// borderless is a kubectl-like layout: columns separated by three spaces,
// no box lines, so the text is easy to read and to cut with awk.
func borderless() table.Style {
	s := table.StyleDefault
	s.Box.PaddingLeft = ""
	s.Box.PaddingRight = "   "
	s.Options = table.Options{}
	s.Format.Header = text.FormatDefault // upper-cased by us, before any colour codes
	return s
}

// writeTables renders each table, separated by a blank line. Columns listed
// in Table.Wide appear only when wide is set.
func writeTables(w io.Writer, tables []Table, wide, color bool) error {
	bw := bufio.NewWriter(w)
	for i, t := range tables {
		if i > 0 {
			bw.WriteString("\n")
		}
		bw.WriteString(renderTable(t, wide, color))
	}
	return bw.Flush()
}

func renderTable(t Table, wide, color bool) string {
	t = escapeTable(t) // cluster text reaches a terminal here; colours are added after
	var out strings.Builder
	if t.Title != "" {
		out.WriteString(paint(t.Title, ansiBold, color) + "\n")
	}
	if len(t.Rows) == 0 {
		out.WriteString("(none)\n")
		writeFooter(&out, t.Footer)
		return out.String()
	}
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	hidden := map[int]bool{}
	if !wide {
		for _, c := range t.Wide {
			hidden[c] = true
		}
	}
	keep := func(cells []string, fn func(string) string) table.Row {
		row := table.Row{}
		for c := 0; c < cols; c++ {
			if hidden[c] {
				continue
			}
			v := ""
			if c < len(cells) {
				v = cells[c]
			}
			row = append(row, fn(v))
		}
		return row
	}
	tw := table.NewWriter()
	tw.SetStyle(borderless())
	if len(t.Header) > 0 {
		tw.AppendHeader(keep(t.Header, func(s string) string { return paint(strings.ToUpper(s), ansiBold, color) }))
	}
	for _, r := range t.Rows {
		tw.AppendRow(keep(r, func(s string) string { return paint(s, stateColors[s], color) }))
	}
	for _, line := range strings.Split(tw.Render(), "\n") {
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	writeFooter(&out, t.Footer)
	return out.String()
}

func writeFooter(out *strings.Builder, lines []string) {
	for _, l := range lines {
		out.WriteString(l + "\n")
	}
}

func paint(s, code string, color bool) string {
	if !color || code == "" || s == "" {
		return s
	}
	return code + s + ansiReset
}
