package format

import (
	"bytes"
	"encoding/json"
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
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError {
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
	})
}
