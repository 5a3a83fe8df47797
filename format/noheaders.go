package format

import (
	"regexp"
	"strings"
)

// With --no-headers a table is for awk and cut, which split on blanks: each
// cell must be one token, and every row must have every field.
var (
	// listSeparator is a comma with blanks around it, or a run of blanks:
	// the gaps between the items of a list cell ("a, b", "/10.0.0.1 http://…").
	listSeparator = regexp.MustCompile(`\s*,\s*|\s+`)
)

// tokenCell makes a cell one token: list items joined by commas without
// spaces, any other blank run a comma too, and an empty cell "-".
func tokenCell(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "-"
	}
	return listSeparator.ReplaceAllString(s, ",")
}

// tokenRows applies tokenCell to every cell.
func tokenRows(rows [][]string) {
	for _, r := range rows {
		for c := range r {
			r[c] = tokenCell(r[c])
		}
	}
}
