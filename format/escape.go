package format

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// EscapeTerminal makes text from the cluster (connector names, configs,
// traces) safe to print on a terminal: a connector named with ESC or OSC
// sequences must not recolour, retitle or rewrite the screen. As kubectl's
// printers do, ESC becomes "^["; the other C0 controls and DEL become
// caret notation (^G, ^?), \n \r \t their backslash form (so one cell stays
// one line), and C1 controls and bytes that are not UTF-8 become \u0085 or
// \x9b forms. Printable text, including any other Unicode, is unchanged.
// Machine formats never go through it: they carry the exact bytes.
func EscapeTerminal(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@') // ESC (0x1b) is ^[
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r <= 0x9f:
			b.WriteString(`\u00`)
			b.WriteString(strconv.FormatUint(uint64(r), 16))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape is the fast path: most cells are plain ASCII.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return !utf8.ValidString(s[i:]) || hasC1(s[i:])
			}
			return true
		}
	}
	return false
}

func hasC1(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}

// escapeTable returns t with every text a table shows escaped for the
// terminal: title, headers, cells and footer lines.
func escapeTable(t Table) Table {
	esc := func(in []string) []string {
		out := make([]string, len(in))
		for i, s := range in {
			out[i] = EscapeTerminal(s)
		}
		return out
	}
	t.Title = EscapeTerminal(t.Title)
	t.Header = esc(t.Header)
	t.Footer = esc(t.Footer)
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = esc(r)
	}
	t.Rows = rows
	return t
}
