package format

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// actsOnTerminal reports the printable-looking runes a terminal acts on or
// reorders text by that the JSON encoder leaves raw: DEL, the C1 controls
// (U+0080-U+009F; U+009B is CSI on many terminals) and the bidi marks
// (isBidiControl).
func actsOnTerminal(r rune) bool { return (r >= 0x7f && r <= 0x9f) || isBidiControl(r) }

// hasTerminalRune reports whether s holds a rune actsOnTerminal reports.
func hasTerminalRune(s string) bool { return strings.IndexFunc(s, actsOnTerminal) >= 0 }

// RuneEscaper passes JSON or YAML text through and writes every rune
// actsOnTerminal reports as a \uXXXX escape. JSON strings and YAML
// double-quoted scalars read the escape back as the same character, and
// those are the only places such a rune can stand in our output (YAML
// scalars holding one are double-quoted: yamlString), so the value a script
// reads is unchanged while a terminal showing -o json or yaml is never
// driven or its text reordered by a connector's name. ESC and the other C0
// controls never reach it raw: both encoders escape them already.
type RuneEscaper struct {
	w     io.Writer
	carry []byte // the start of a multi-byte rune the last Write cut off
	out   []byte
}

// NewRuneEscaper writes to w; Flush ends it. Write uses one for -o json,
// jsonl and yaml; snapshot files, which outlive terminals and are shown
// with cat, go through one too.
func NewRuneEscaper(w io.Writer) *RuneEscaper { return &RuneEscaper{w: w} }

// leadLen is the length of the UTF-8 sequences whose lead byte can start
// a rune actsOnTerminal reports (DEL: 1; U+0080-U+009F: C2; U+061C: D8;
// U+200E-U+2069: E2), 0 for any other byte.
func leadLen(c byte) int {
	if c < 0x7f {
		return 0 // ASCII below DEL, nearly all of the text: one compare
	}
	switch c {
	case 0x7f:
		return 1
	case 0xc2, 0xd8:
		return 2
	case 0xe2:
		return 3
	}
	return 0
}

func (e *RuneEscaper) Write(p []byte) (int, error) {
	if len(e.carry) == 0 && !hasLead(p) {
		return e.w.Write(p) // nearly all output: nothing to look at twice
	}
	data := p
	if len(e.carry) > 0 {
		data = append(e.carry, p...)
		e.carry = nil
	}
	out, start := e.out[:0], 0
	for i := 0; i < len(data); {
		n := leadLen(data[i])
		if n == 0 {
			i++
			continue
		}
		if i+n > len(data) { // cut off: decide when the rest arrives
			out = append(out, data[start:i]...)
			e.carry = append([]byte(nil), data[i:]...)
			start = len(data)
			break
		}
		r, size := utf8.DecodeRune(data[i : i+n])
		if size != n || !actsOnTerminal(r) {
			i++
			continue
		}
		out = append(out, data[start:i]...)
		out = append(out, `\u`...)
		out = append(out, strconv.FormatUint(uint64(r)|0x10000, 16)[1:]...)
		i += n
		start = i
	}
	out = append(out, data[start:]...)
	e.out = out
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func hasLead(p []byte) bool {
	for _, c := range p {
		if leadLen(c) != 0 {
			return true
		}
	}
	return false
}

// Flush writes what the last Write held back (a cut-off sequence at the
// very end is not a rune, so it goes out as it came).
func (e *RuneEscaper) Flush() error {
	if len(e.carry) == 0 {
		return nil
	}
	_, err := e.w.Write(e.carry)
	e.carry = nil
	return err
}
