package format

import (
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

// fitColumns works out column widths, and the gap between columns, that
// make rows fit width: the widest columns give up space first, down to
// minColumn; if that is not enough the gap narrows to two spaces and the
// columns go down to their headers' width, the first column (what names the
// row) last. It returns nil when the table fits as it is (or no width is set).
func fitColumns(header []string, rows [][]string, width int) (widths []int, gap int) {
	gap = columnGap
	if width <= 0 {
		return nil, gap
	}
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 {
		return nil, gap
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
	excess := -width
	for _, w := range widths {
		excess += w
	}
	excess += gap * (n - 1)
	if excess <= 0 {
		return nil, gap
	}
	floor := make([]int, n)
	for c := range floor {
		floor[c] = min(widths[c], max(headerWidth[c], minColumn))
	}
	if excess = shrink(widths, floor, excess); excess <= 0 {
		return widths, gap
	}
	gap = 2
	excess -= n - 1
	for c := range floor {
		if c > 0 {
			floor[c] = min(floor[c], max(headerWidth[c], 4))
		}
	}
	if excess = shrink(widths, floor, excess); excess > 0 {
		floor[0] = min(floor[0], max(headerWidth[0], 4))
		excess = shrink(widths, floor, excess)
	}
	if excess > 0 { // more columns than the width holds: headers are cut too
		for c := range floor {
			floor[c] = min(floor[c], 3)
		}
		shrink(widths, floor, excess)
	}
	return widths, gap
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
func shortenCells(rows [][]string, widths []int) bool {
	cut := false
	for _, r := range rows {
		for c, v := range r {
			w := widths[c]
			if text.StringWidthWithoutEscSequences(v) <= w {
				continue
			}
			cut = true
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

// shortenedNote is the line under a table whose cells were cut.
func shortenedNote(width int) string {
	return "(values shortened to fit " + strconv.Itoa(width) + " columns: -o wide or -o json shows them whole)"
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
