package format

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// EscapeTerminal makes text from the cluster (connector names, configs,
// traces) safe to print on a terminal: a connector named with ESC or OSC
// sequences must not recolour, retitle or rewrite the screen. As kubectl's
// printers do, ESC becomes "^["; the other C0 controls and DEL become
// caret notation (^G, ^?), \n \r \t their backslash form (so one cell stays
// one line), and C1 controls and bytes that are not UTF-8 become \u0085 or
// \x9b forms, and the invisible marks that reorder text (the bidi
// overrides and isolates U+202A-202E, U+2066-2069, and U+200E, U+200F,
// U+061C) and the line and paragraph separators U+2028, U+2029 (a line
// break to an editor or a browser a table is pasted into) their \u202e
// form, so a name cannot display as another or span lines. Printable
// text, including any other Unicode, is unchanged.
// Machine formats never go through it: they carry the exact bytes.
func EscapeTerminal(s string) string { return escapeText(s, false) }

// EscapeText is EscapeTerminal for text printed whole on a terminal (a
// --jq string, as jq -r prints it): newlines and tabs stay, so a trace
// reads as lines; every other control is escaped as EscapeTerminal does,
// \r too, so no line can be written over another.
func EscapeText(s string) string { return escapeText(s, true) }

func escapeText(s string, keepLines bool) string {
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
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
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
		case isHiddenMark(r):
			b.WriteString(`\u`)
			b.WriteString(strconv.FormatUint(uint64(r)|0x10000, 16)[1:])
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
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isHiddenMark(r) {
			return true
		}
	}
	return false
}

// isHiddenMark reports the characters escaped in their \u form: the
// bidi controls and the line and paragraph separators.
func isHiddenMark(r rune) bool { return isBidiControl(r) || r == 0x2028 || r == 0x2029 }

// isBidiControl reports the characters that change the direction or order
// in which a terminal shows the text around them (Trojan Source's marks).
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// maxWord is how long a run of text without blanks may stand in a line a
// terminal sees before EscapeLine shortens it: longer than any path or
// host:port a person types, far shorter than a name meant to flood the
// screen.
const maxWord = 200

// EscapeLine is EscapeTerminal for a line of prose that carries text from
// the cluster (an error, a watch event): every run of more than maxWord
// characters without a blank keeps its start and says how much was left
// out ("…(4,800 more characters)"), so a 5,000-character connector name
// costs one line, not a screenful.
func EscapeLine(s string) string {
	s = EscapeTerminal(s)
	if len(s) <= maxWord {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexByte(s, ' ')
		word, rest := s, ""
		if i >= 0 {
			word, rest = s[:i], s[i:]
		}
		if n := utf8.RuneCountInString(word); n > maxWord {
			cut := 0
			for k := 0; k < maxWord; k++ {
				_, size := utf8.DecodeRuneInString(word[cut:])
				cut += size
			}
			b.WriteString(word[:cut])
			b.WriteString("…(")
			b.WriteString(groupThousands(n - maxWord))
			b.WriteString(" more characters)")
		} else {
			b.WriteString(word)
		}
		if rest == "" {
			break
		}
		b.WriteByte(' ')
		s = rest[1:]
	}
	return b.String()
}

// maxListed is how many names a message lists before "and N more".
const maxListed = 10

// List joins names for a message, "a, b, c", listing at most ten and then
// "and N more", so a cluster of thousands of connectors does not fill
// the screen with one error.
func List(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListed], ", ") + " and " + groupThousands(len(names)-maxListed) + " more"
}

func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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

// TextWriter writes through EscapeText: for a stream of lines that carry
// names (the sandbox's log and shell, whose connector and worker names are
// typed by anyone on its input or read from its broker). Each Write is
// escaped whole, as the lines are written (fmt.Fprintf writes one string),
// and written whole under a lock: the sandbox's workers, its shell and its
// command write lines to one stream at once.
func TextWriter(w io.Writer) io.Writer { return &textWriter{w: w} }

type textWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (t *textWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(p)
	if !needsEscape(s) {
		return t.w.Write(p)
	}
	if _, err := io.WriteString(t.w, EscapeText(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}
