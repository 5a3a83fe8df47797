package format

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileCells are texts a cluster can carry in connector names, configs and
// traces, aimed at the terminal that shows a table.
var hostileCells = []struct{ in, want string }{
	{"plain-connector", "plain-connector"},
	{"naïve—connector ✓", "naïve—connector ✓"},
	{"\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
	{"\x1b]0;owned title\x07", "^[]0;owned title^G"},                 // OSC set title, BEL-terminated
	{"\x1b]8;;http://evil/\x1b\\link", "^[]8;;http://evil/^[\\link"}, // OSC 8 hyperlink
	{"\x1b[2J\x1b[H", "^[[2J^[[H"},                                   // clear screen, cursor home
	{"line1\nRUNNING   fake-row", `line1\nRUNNING   fake-row`},
	{"over\rwrite", `over\rwrite`},
	{"tab\there", `tab\there`},
	{"nul\x00bell\x07bs\x08", "nul^@bell^Gbs^H"},
	{"del\x7f", "del^?"},
	{"c1 csi \u009b31m", `c1 csi \u009b31m`},
	{"c1 nel \u0085", `c1 nel \u0085`},
	{"raw byte \x9b31m", `raw byte \x9b31m`},
	{"cut \xe2\x80", `cut \xe2\x80`},
	{"", ""},
	{"evil\u202egnp.exe", `evil\u202egnp.exe`},       // right-to-left override
	{"two\u2028lines\u2029", `two\u2028lines\u2029`}, // line and paragraph separators
	{"a\u2066b\u2069c\u202ad\u202ce", `a\u2066b\u2069c\u202ad\u202ce`},
	{"rlm\u200f lrm\u200e alm\u061c", `rlm\u200f lrm\u200e alm\u061c`},
	{"\u05e9\u05dc\u05d5\u05dd", "\u05e9\u05dc\u05d5\u05dd"}, // Hebrew text itself stays
}

func TestEscapeTerminal(t *testing.T) {
	for _, tc := range hostileCells {
		if got := EscapeTerminal(tc.in); got != tc.want {
			t.Errorf("EscapeTerminal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

type escapeResult struct {
	Name string `json:"name"`
}

func (r escapeResult) Tables() []Table {
	return []Table{{
		Title:  "connectors " + r.Name,
		Header: []string{"name", "state"},
		Rows:   [][]string{{r.Name, "RUNNING"}},
		Footer: []string{"1 connector: " + r.Name},
	}}
}

// Tables escape every text; machine formats keep the exact bytes.
func TestTablesEscapeMachineFormatsStayExact(t *testing.T) {
	for _, tc := range hostileCells {
		res := escapeResult{Name: tc.in}
		for _, color := range []bool{false, true} {
			var out bytes.Buffer
			if err := Write(&out, res, Options{Output: OutputTable, ForceColor: color}); err != nil {
				t.Fatal(err)
			}
			assertTerminalSafe(t, out.String(), color)
			if !strings.Contains(out.String(), tc.want) {
				t.Errorf("table for %q lacks the escaped form %q:\n%s", tc.in, tc.want, out.String())
			}
		}
		var js bytes.Buffer
		if err := Write(&js, res, Options{Output: OutputJSON}); err != nil {
			t.Fatal(err)
		}
		var back escapeResult
		if err := json.Unmarshal(js.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if utf8.ValidString(tc.in) && back.Name != tc.in {
			t.Errorf("json changed %q into %q", tc.in, back.Name)
		}
	}
}

// assertTerminalSafe fails on any control character other than newline, and
// on ESC other than the SGR colour codes the table itself adds.
func assertTerminalSafe(t *testing.T, out string, color bool) {
	t.Helper()
	if color {
		for _, sgr := range []string{ansiBold, ansiRed, ansiGreen, ansiYellow, ansiReset} {
			out = strings.ReplaceAll(out, sgr, "")
		}
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError || isHiddenMark(r) {
			t.Fatalf("control character %U reaches the terminal in:\n%q", r, out)
		}
	}
}

func FuzzEscapeTerminal(f *testing.F) {
	for _, tc := range hostileCells {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := EscapeTerminal(s)
		assertTerminalSafe(t, got, false)
		if strings.Contains(got, "\n") {
			t.Fatalf("a newline survives in %q", got)
		}
		if EscapeTerminal(got) != got {
			t.Fatalf("escaping is not stable: %q then %q", got, EscapeTerminal(got))
		}
		line := EscapeLine(s)
		assertTerminalSafe(t, line, false)
		for _, w := range strings.Split(line, " ") {
			if n := utf8.RuneCountInString(w); n > maxWord+len("…(9,999,999 more characters)") {
				t.Fatalf("a %d-character word survives EscapeLine", n)
			}
		}
	})
}

func TestEscapeLineShortensLongWords(t *testing.T) {
	long := strings.Repeat("x", 5000)
	got := EscapeLine(`connector "` + long + `" not found: known connectors are a, b`)
	if len(got) > 400 {
		t.Errorf("a 5,000-character name stays %d bytes long: %q", len(got), got[:100])
	}
	if !strings.Contains(got, "…(4,802 more characters)") || !strings.HasSuffix(got, "not found: known connectors are a, b") {
		t.Errorf("EscapeLine = %q", got)
	}
	if got := EscapeLine("plain line with a /path/to/file.json"); got != "plain line with a /path/to/file.json" {
		t.Errorf("a short line changed: %q", got)
	}
	if got := EscapeLine("\x1b]0;title\x07 " + strings.Repeat("é", 300)); !strings.HasPrefix(got, "^[]0;title^G ééé") || !strings.HasSuffix(got, "…(100 more characters)") || !utf8.ValidString(got) {
		t.Errorf("EscapeLine = %q", got)
	}
}

func TestListShortens(t *testing.T) {
	var names []string
	for i := 0; i < 1234; i++ {
		names = append(names, "c")
	}
	if got := List(names); got != strings.Repeat("c, ", 9)+"c and 1,224 more" {
		t.Errorf("List = %q", got)
	}
	if got := List([]string{"a", "b"}); got != "a, b" {
		t.Errorf("List = %q", got)
	}
}

func TestTextWriterEscapesEachWrite(t *testing.T) {
	var b strings.Builder
	w := TextWriter(&b)
	for _, s := range []string{"plain line\n", "name \x1b[31mred\tand\n\u202eq\n"} {
		if n, err := io.WriteString(w, s); err != nil || n != len(s) {
			t.Fatalf("write %q: %d, %v", s, n, err)
		}
	}
	if got, want := b.String(), "plain line\nname ^[[31mred\tand\n\\u202eq\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
