package format

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
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

// tableStyle is how tables are printed: the -o wide columns, colour, the
// width to fit (0: none) and whether titles, headers and footers show.
type tableStyle struct {
	wide, color bool
	width       int
	noHeaders   bool
}

// writeTables renders each table, separated by a blank line (with
// --no-headers too, so a script can tell where one table ends). Columns
// listed in Table.Wide appear only when wide is set.
func writeTables(w io.Writer, tables []Table, st tableStyle) error {
	bw := bufio.NewWriter(w)
	shown := 0
	for _, t := range tables {
		if t.WideOnly && !st.wide {
			continue
		}
		if shown > 0 {
			bw.WriteString("\n")
		}
		shown++
		renderTable(bw, t, st)
		if _, err := bw.Write(nil); err != nil {
			return err // a closed pipe or Ctrl-C: no more tables
		}
	}
	return bw.Flush()
}

// stringWriter is where tables are written: the output's buffer, or a
// strings.Builder in tests.
type stringWriter interface {
	io.Writer
	io.StringWriter
}

func renderTable(out stringWriter, t Table, st tableStyle) {
	t = escapeTable(t) // cluster text reaches a terminal here; colours and wrapping are added after
	if t.Title != "" && !st.noHeaders {
		out.WriteString(paint(wrapTitle(headingStyle(t.Title), st.width), ansiBold, st.color) + "\n")
	}
	if len(t.Rows) == 0 {
		if !st.noHeaders {
			out.WriteString("(none)\n")
			writeFooter(out, t.Footer)
		}
		return
	}
	header, rows, hidden := visibleCells(t, st.wide)
	if st.noHeaders {
		tokenRows(rows)
	}
	fit := tableFit{gap: columnGap, wrap: map[int]bool{}}
	if !st.wide {
		fit = fitTable(t, st, header, rows, hidden)
		header, rows = fit.header, fit.rows
	}
	failed := failedColumn(header) // before headers may be cut to fit
	shortened := fit.widths != nil && shortenCells(rows, fit.widths, fit.wrap)
	if fit.widths != nil {
		shortenCells([][]string{header}, fit.widths, nil)
	}
	writeGrid(out, len(t.Header) > 0 && !st.noHeaders, header, rows, fit.gap, failed, st.color)
	if !st.noHeaders {
		footer := make([]string, len(t.Footer))
		for i, l := range t.Footer {
			footer[i] = wrapWords(l, st.width)
		}
		writeFooter(out, footer)
		if len(fit.dropped) > 0 {
			out.WriteString(wrapWords(droppedNote(st.width, fit.dropped), st.width) + "\n")
		}
		if shortened {
			out.WriteString(wrapWords(shortenedNote(st.width), st.width) + "\n")
		}
	}
}

// visibleCells are the header (upper-cased) and rows without the columns
// only -o wide shows, every row as wide as the widest; hidden are the
// columns left out. A row that is already that is t's own, not a copy:
// renderTable's t is escapeTable's copy, which nothing else holds.
func visibleCells(t Table, wide bool) (header []string, rows [][]string, hidden map[int]bool) {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	hidden = map[int]bool{}
	if !wide {
		for _, c := range t.Wide {
			hidden[c] = true
		}
	}
	visible := func(cells []string) []string {
		if len(hidden) == 0 && len(cells) == cols {
			return cells
		}
		row := []string{}
		for c := 0; c < cols; c++ {
			if hidden[c] {
				continue
			}
			v := ""
			if c < len(cells) {
				v = cells[c]
			}
			row = append(row, v)
		}
		return row
	}
	header = visible(t.Header)
	for i := range header {
		header[i] = strings.ToUpper(header[i])
	}
	rows = make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = visible(r)
	}
	return header, rows, hidden
}

// tableFit is a table fitted to the terminal's width: the columns kept,
// their widths, the gap between them, the columns that wrap, and the names
// of the columns dropped.
type tableFit struct {
	header  []string
	rows    [][]string
	widths  []int
	gap     int
	wrap    map[int]bool
	dropped []string
}

// fitTable fits the visible cells to st.width: key columns kept whole,
// wrap columns wrapped, drop columns dropped first when even that is not
// enough.
func fitTable(t Table, st tableStyle, header []string, rows [][]string, hidden map[int]bool) tableFit {
	fit := tableFit{header: header, rows: rows, wrap: map[int]bool{}}
	hdr := header
	if st.noHeaders || len(t.Header) == 0 {
		hdr = nil
	}
	keys := t.Key
	if len(keys) == 0 {
		keys = []int{0}
	}
	spec := fitSpec{key: setOf(visibleIndexes(keys, hidden))}
	if !st.noHeaders { // rows for scripts keep every column, one line each
		fit.wrap = setOf(visibleIndexes(t.Wrap, hidden))
		spec.wrap, spec.drop = fit.wrap, visibleIndexes(t.Drop, hidden)
	}
	var dropped []int
	fit.widths, fit.gap, dropped = fitColumns(hdr, rows, st.width, spec)
	if len(dropped) > 0 {
		gone := setOf(dropped)
		for _, c := range dropped {
			if c < len(header) {
				fit.dropped = append(fit.dropped, header[c])
			}
		}
		fit.header, fit.widths = without(header, gone), without(fit.widths, gone)
		for i := range rows {
			rows[i] = without(rows[i], gone)
		}
		fit.wrap = shiftSet(fit.wrap, gone)
	}
	return fit
}

// writeGrid renders the header and rows borderless, states in their
// colours and a connector with a failed task in red, trailing spaces cut.
func writeGrid(out stringWriter, withHeader bool, header []string, rows [][]string, gap, failed int, color bool) {
	var hdr []string
	if withHeader {
		hdr = make([]string, len(header))
		for i, h := range header {
			hdr[i] = paint(h, ansiBold, color)
		}
	}
	cells := rows // without colour, paint changes nothing
	if color {
		cells = paintCells(rows, failed)
	}
	top := [][]string{}
	if withHeader {
		top = append(top, hdr)
	}
	if len(cells) > 0 && !holdsLineBreak(top) && !holdsLineBreak(cells) {
		writeRows(out, gap, top, cells)
		return
	}
	// A row over several lines, as go-pretty lays it out (cluster text
	// never: escapeTable writes CR and LF as \r and \n).
	for _, line := range renderGrid(hdr, cells, withHeader, gap) {
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// paintCells colours the cells operators scan for: states, and a
// connector with a failed task in red with its count.
func paintCells(rows [][]string, failed int) [][]string {
	cells := make([][]string, len(rows))
	for i, r := range rows {
		alert := failed >= 0 && failed < len(r) && isPositiveCount(r[failed])
		cells[i] = make([]string, len(r))
		for c, v := range r {
			code := stateColors[v]
			if alert && (c == 0 || c == failed) {
				code = ansiRed
			}
			cells[i][c] = paint(v, code, true)
		}
	}
	return cells
}

// holdsLineBreak reports whether a cell holds a CR or LF: go-pretty then
// lays the table out, a row over several lines.
func holdsLineBreak(rows [][]string) bool {
	for _, r := range rows {
		for _, v := range r {
			if strings.ContainsAny(v, "\r\n") {
				return true
			}
		}
	}
	return false
}

// writeRows writes the rows of groups one line each, as go-pretty lays
// them out when no cell holds a line break (TestGridIsGoPretty holds it to
// go-pretty): every column but the last padded to its widest cell, in
// display width without colour codes, then gap spaces; the last as it is
// (go-pretty padded it too, to its widest cell: 15,000 findings beside one
// message of 175 KB built 2.6 GB of spaces); tabs as four spaces; trailing
// spaces cut. A plan's -o wide rounds of a thousand workers (2 million
// rows) took go-pretty 12 s and 3 GB.
func writeRows(out stringWriter, gap int, groups ...[][]string) {
	n := 0
	for _, rows := range groups {
		for _, r := range rows {
			n = max(n, len(r))
		}
	}
	cell := func(r []string, c int) string {
		if c >= len(r) {
			return ""
		}
		return strings.ReplaceAll(r[c], "\t", "    ")
	}
	widths := make([]int, n)
	for _, rows := range groups {
		for _, r := range rows {
			for c := 0; c < n-1; c++ {
				widths[c] = max(widths[c], text.LongestLineLen(cell(r, c)))
			}
		}
	}
	var line []byte
	wrote := false
	for _, rows := range groups {
		for _, r := range rows {
			if len(r) == 0 {
				continue // go-pretty writes no line for a row of no cells
			}
			line = line[:0]
			for c := 0; c < n-1; c++ {
				v := strings.TrimRight(cell(r, c), " ") // left-aligned, as go-pretty trims
				line = append(line, v...)
				for range max(widths[c]-text.StringWidthWithoutEscSequences(v), 0) + gap {
					line = append(line, ' ')
				}
			}
			line = append(line, cell(r, n-1)...)
			line = append(bytes.TrimRight(line, " "), '\n')
			if _, err := out.Write(line); err != nil {
				return // a closed pipe or Ctrl-C: writeTables reports it
			}
			wrote = true
		}
	}
	if !wrote {
		out.Write([]byte{'\n'}) // go-pretty's empty table is one empty line
	}
}

// renderGrid lays hdr and cells out with go-pretty; one string a line.
func renderGrid(hdr []string, cells [][]string, withHeader bool, gap int) []string {
	row := func(r []string) table.Row {
		out := make(table.Row, len(r))
		for i, v := range r {
			out[i] = v
		}
		return out
	}
	tw := table.NewWriter()
	style := borderless()
	style.Box.PaddingRight = strings.Repeat(" ", gap)
	tw.SetStyle(style)
	if withHeader {
		tw.AppendHeader(row(hdr))
	}
	for _, r := range cells {
		tw.AppendRow(row(r))
	}
	return strings.Split(tw.Render(), "\n")
}

// failedColumn is the index of a FAILED count column, or -1.
func failedColumn(header []string) int {
	for i, h := range header {
		if h == "FAILED" {
			return i
		}
	}
	return -1
}

func isPositiveCount(s string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return err == nil && n > 0
}

// headingStyle gives every table title one style, whatever its command
// wrote: sentence case ("FINDINGS" and "findings" read "Findings"), words
// of capitals with digits or dots (ids, setting names) kept as they are.
func headingStyle(title string) string {
	words := strings.Split(title, " ")
	for i, w := range words {
		letters := strings.Trim(w, "()[]:,")
		if len(letters) > 1 && strings.ToUpper(letters) == letters && strings.IndexFunc(letters, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0 {
			words[i] = strings.ToLower(w)
		}
	}
	// The first word starts upper-case when it is a plain word; a name
	// (connect-10.0.0.1:8083, orders-sink) is left as written.
	if first := words[0]; first != "" && strings.IndexFunc(first, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
		words[0] = strings.ToUpper(first[:1]) + first[1:]
	}
	return strings.Join(words, " ")
}

func writeFooter(out stringWriter, lines []string) {
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
