package format

import (
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/text"
)

// Fitting tables to the terminal: kept apart from rendering so that other
// cell transformations (escaping) and this one stay independent.

// columnGap is the space between two columns of the borderless style.
const columnGap = 3

// minColumn is the narrowest a shortened column gets: enough to recognise a
// name or an id.
const minColumn = 12

// TerminalWidth is the width tables should fit: COLUMNS when set to a
// number, else the terminal's width when f is one, else 0 (no limit: a pipe
// or a file gets every value whole).
func TerminalWidth(f *os.File) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f == nil {
		return 0
	}
	return terminalColumns(f)
}

// fitSpec says, in visible column indexes, which columns identify a row
// (never cut), which may be left out (in order) and which wrap.
type fitSpec struct {
	key, wrap map[int]bool
	drop      []int
}

// minWrap is the narrowest a wrapped column gets.
const minWrap = 20

// fitColumns works out column widths, and the gap between columns, that
// make rows fit width. The columns that identify a row keep their width.
// First the droppable columns go, in their order, until the rest fits
// whole; then the widest other columns give up space, down to minColumn
// (minWrap for wrapped prose); if that is not enough the gap narrows to two
// spaces and the others go down to their headers' width, then to 3. What
// still does not fit runs past width rather than cut a name. It returns nil
// widths when the table fits as it is (or no width is set), and the columns
// left out.
func fitColumns(header []string, rows [][]string, width int, spec fitSpec) (widths []int, gap int, dropped []int) {
	gap = columnGap
	if width <= 0 {
		return nil, gap, nil
	}
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 {
		return nil, gap, nil
	}
	widths = make([]int, n)
	headerWidth := make([]int, n)
	for c := 0; c < n && c < len(header); c++ {
		headerWidth[c] = text.StringWidthWithoutEscSequences(header[c])
		widths[c] = headerWidth[c]
	}
	for _, r := range rows {
		for c, v := range r {
			widths[c] = max(widths[c], text.StringWidthWithoutEscSequences(v))
		}
	}
	gone := map[int]bool{}
	excessOf := func(g int) int {
		e, cols := -width, 0
		for c, w := range widths {
			if !gone[c] {
				e += w
				cols++
			}
		}
		return e + g*(cols-1)
	}
	if excessOf(gap) <= 0 {
		return nil, gap, nil
	}
	for _, c := range spec.drop {
		if c < 0 || c >= n || spec.key[c] {
			continue
		}
		gone[c] = true
		dropped = append(dropped, c)
		if excessOf(gap) <= 0 {
			break
		}
	}
	numeric := numericColumns(rows, n)
	floor := make([]int, n)
	for c := range floor {
		switch {
		case gone[c], spec.key[c], numeric[c]: // a cut number reads as another number
			floor[c] = widths[c]
		case spec.wrap[c]:
			floor[c] = min(widths[c], max(headerWidth[c], minWrap))
		default:
			floor[c] = min(widths[c], max(headerWidth[c], minColumn))
		}
	}
	fl := func() []int {
		out := make([]int, n)
		for c := range floor {
			if gone[c] {
				out[c] = 0
			} else {
				out[c] = floor[c]
			}
		}
		return out
	}
	for c := range widths {
		if gone[c] {
			widths[c] = 0
		}
	}
	excess := excessOf(gap)
	if excess <= 0 {
		return widths, gap, dropped
	}
	if excess = shrink(widths, fl(), excess); excess <= 0 {
		return widths, gap, dropped
	}
	gap = 2
	excess = excessOf(gap)
	for c := range floor {
		if !spec.key[c] && !numeric[c] {
			floor[c] = min(floor[c], max(headerWidth[c], 4))
		}
	}
	if excess = shrink(widths, fl(), excess); excess > 0 { // more columns than the width holds: headers are cut too
		for c := range floor {
			if !spec.key[c] && !numeric[c] {
				floor[c] = min(floor[c], 3)
			}
		}
		shrink(widths, fl(), excess)
	}
	return widths, gap, dropped
}

// numericColumns marks the columns whose cells are all numbers (or "-").
func numericColumns(rows [][]string, n int) map[int]bool {
	out := map[int]bool{}
	for c := 0; c < n; c++ {
		out[c] = len(rows) > 0
		for _, r := range rows {
			if c < len(r) && !isNumber(r[c]) {
				out[c] = false
				break
			}
		}
	}
	return out
}

func isNumber(s string) bool {
	if s == "-" || s == "" {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// shrink narrows the widest columns, never below floor, until excess
// columns are saved or nothing more can give; it returns what is left.
func shrink(widths, floor []int, excess int) int {
	for excess > 0 {
		widest := -1
		for c := range widths {
			if widths[c] > floor[c] && (widest < 0 || widths[c] > widths[widest]) {
				widest = c
			}
		}
		if widest < 0 {
			return excess
		}
		second := floor[widest]
		for c := range widths {
			if c != widest && widths[c] < widths[widest] {
				second = max(second, widths[c])
			}
		}
		give := max(1, min(excess, widths[widest]-second))
		widths[widest] -= give
		excess -= give
	}
	return 0
}

// shortenCells cuts the cells wider than their column: a list or phrase
// keeps its start ("orders-0, orders-…"); a single token (a member id, a
// URL) keeps its start and end, which tell similar ids apart
// ("connect-10.0.1…9e2b1c5d7e9f10"). It reports whether any cell was cut.
func shortenCells(rows [][]string, widths []int, wrap map[int]bool) bool {
	cut := false
	for _, r := range rows {
		for c, v := range r {
			w := widths[c]
			if text.StringWidthWithoutEscSequences(v) <= w {
				continue
			}
			if wrap[c] { // prose goes on over more lines, whole
				r[c] = strings.Join(pack(strings.Fields(v), " ", "", w), "\n")
				continue
			}
			cut = true
			if s, ok := cutDomain(v, w); ok {
				r[c] = s
				continue
			}
			if strings.Contains(v, " ") || w < 8 {
				r[c] = text.Snip(v, w, "…")
				continue
			}
			runes := []rune(v)
			tail := (w - 1) / 2
			head := w - 1 - tail
			r[c] = string(runes[:head]) + "…" + string(runes[len(runes)-tail:])
		}
	}
	return cut
}

// cutDomain shortens a worker's HOST:PORT by its domain, which the workers
// of one cluster share, keeping what tells them apart:
// connect-worker-17.prod.example.com:8083 becomes connect-worker-17…:8083.
func cutDomain(v string, w int) (string, bool) {
	host, port, err := net.SplitHostPort(v)
	if err != nil || net.ParseIP(host) != nil {
		return "", false
	}
	first, _, ok := strings.Cut(host, ".")
	s := first + "…:" + port
	if !ok || first == "" || text.StringWidthWithoutEscSequences(s) > w {
		return "", false
	}
	return s, true
}

// shortenedNote is the line under a table whose cells were cut.
func shortenedNote(width int) string {
	return "(values shortened to fit " + strconv.Itoa(width) + " columns: -o wide or -o json shows them whole)"
}

// droppedNote is the line under a table some of whose columns were left out.
func droppedNote(width int, columns []string) string {
	return "(" + strings.Join(columns, ", ") + " left out to fit " + strconv.Itoa(width) + " columns: -o wide shows every column)"
}

// visibleIndexes maps the full-table column indexes of cols to the indexes
// of the columns shown, skipping hidden ones.
func visibleIndexes(cols []int, hidden map[int]bool) []int {
	var out []int
	for _, c := range cols {
		if !hidden[c] {
			out = append(out, renumbered(c, hidden))
		}
	}
	return out
}

// renumbered is column c's index once the columns gone are removed.
func renumbered(c int, gone map[int]bool) int {
	v := c
	for g := range gone {
		if g < c {
			v--
		}
	}
	return v
}

func setOf(cols []int) map[int]bool {
	m := map[int]bool{}
	for _, c := range cols {
		m[c] = true
	}
	return m
}

// without removes the columns drop from a row (of cells or widths).
func without[T any](row []T, drop map[int]bool) []T {
	out := make([]T, 0, len(row))
	for c, v := range row {
		if !drop[c] {
			out = append(out, v)
		}
	}
	return out
}

// wrapTitle breaks a long title between its fields (parts separated by two
// spaces) to fit width.
func wrapTitle(title string, width int) string {
	if width <= 0 || text.StringWidthWithoutEscSequences(title) <= width {
		return title
	}
	lines := pack(strings.Split(title, "  "), "  ", "", width)
	for i, l := range lines {
		lines[i] = wrapWords(l, width)
	}
	return strings.Join(lines, "\n")
}

// wrapWords breaks a line of text at spaces to fit width; a word longer
// than width stays whole on its own line, and continuation lines are
// indented.
func wrapWords(line string, width int) string {
	if width <= 0 || text.StringWidthWithoutEscSequences(line) <= width {
		return line
	}
	return strings.Join(pack(strings.Split(line, " "), " ", "  ", width), "\n")
}

// pack fills lines greedily with parts joined by sep, each line at most
// width wide unless one part alone is wider; lines after the first start
// with indent.
func pack(parts []string, sep, indent string, width int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		switch {
		case cur == "":
			cur = p
		case text.StringWidthWithoutEscSequences(cur)+len(sep)+text.StringWidthWithoutEscSequences(p) <= width:
			cur += sep + p
		default:
			lines = append(lines, cur)
			cur = indent + p
		}
	}
	return append(lines, cur)
}

// shiftSet renumbers a set of column indexes after the columns gone are removed.
func shiftSet(set, gone map[int]bool) map[int]bool {
	out := map[int]bool{}
	for c := range set {
		if !gone[c] {
			out[renumbered(c, gone)] = true
		}
	}
	return out
}
