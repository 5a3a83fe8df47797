package format

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// terminalRunes are every rune actsOnTerminal reports, and the C0 controls.
func terminalRunes() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		rs = append(rs, r)
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		rs = append(rs, r)
	}
	return append(rs, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c)
}

// hostileResult holds text as a connector's name can carry it, in values
// and in a map key, beside text that must stay as it is.
type hostileResult struct {
	Names  []string          `json:"names"`
	Config map[string]string `json:"config"`
}

func newHostileResult() hostileResult {
	r := hostileResult{Config: map[string]string{}}
	for _, c := range terminalRunes() {
		s := "a" + string(c) + "b"
		r.Names = append(r.Names, s, string(c))
		r.Config[s] = s
	}
	r.Names = append(r.Names, "plain", "€ ü 日本", "abc\u202edef", "x\u2028y", "\u00a0nbsp", "ꙮ")
	return r
}

// rawTerminalRunes lists what a terminal would act on in out, outside the
// newlines that lay it out and the tabs a YAML block keeps.
func rawTerminalRunes(out []byte) []rune {
	var bad []rune
	for _, r := range string(out) {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || actsOnTerminal(r) {
			bad = append(bad, r)
		}
	}
	return bad
}

// TestMachineFormatsCarryNoTerminalRunes: -o json, jsonl and yaml never
// hold a C0 or C1 control or a bidi mark raw, in a value or a key, and read
// back as the same values (the escape means the same character). With the
// RuneEscaper left out, json and jsonl fail on U+0080-U+009F and the bidi
// marks, yaml on the bidi marks.
func TestMachineFormatsCarryNoTerminalRunes(t *testing.T) {
	want := newHostileResult()
	for _, output := range []string{OutputJSON, OutputJSONL, OutputYAML} {
		var buf bytes.Buffer
		if err := Write(&buf, want, Options{Output: output}); err != nil {
			t.Fatalf("-o %s: %v", output, err)
		}
		if bad := rawTerminalRunes(buf.Bytes()); len(bad) > 0 {
			t.Errorf("-o %s prints %d runes a terminal acts on raw, the first %U", output, len(bad), bad[0])
		}
		var got hostileResult
		if err := readBack(output, buf.Bytes(), &got); err != nil {
			t.Fatalf("-o %s does not read back: %v", output, err)
		}
		if !equalHostile(got, want) {
			t.Errorf("-o %s reads back as other values:\n got %q\nwant %q", output, got, want)
		}
	}
}

// readBack decodes what -o output printed.
func readBack(output string, b []byte, v any) error {
	if output == OutputYAML {
		return yaml.Unmarshal(b, v)
	}
	return json.Unmarshal(b, v)
}

func equalHostile(a, b hostileResult) bool {
	if strings.Join(a.Names, "\x00") != strings.Join(b.Names, "\x00") || len(a.Config) != len(b.Config) {
		return false
	}
	for k, v := range b.Config {
		if a.Config[k] != v {
			return false
		}
	}
	return true
}

// TestRuneEscaperCutAnywhere: the escaper gives the same text however the
// writer's chunks cut a multi-byte rune.
func TestRuneEscaperCutAnywhere(t *testing.T) {
	in := []byte(`{"a":"x` + "\u009b\u202e€\u0080\u061c\u2069\x7f" + `y","b":"` + "\xe2\x80" + `"}` + "\xc2")
	var whole bytes.Buffer
	e := NewRuneEscaper(&whole)
	e.Write(in)
	e.Flush()
	if want := `{"a":"x\u009b\u202e€\u0080\u061c\u2069\u007fy","b":"` + "\xe2\x80" + `"}` + "\xc2"; whole.String() != want {
		t.Fatalf("whole: %q, want %q", whole.String(), want)
	}
	for size := 1; size < len(in); size++ {
		var got bytes.Buffer
		e := NewRuneEscaper(&got)
		for i := 0; i < len(in); i += size {
			e.Write(in[i:min(i+size, len(in))])
		}
		e.Flush()
		if got.String() != whole.String() {
			t.Errorf("chunks of %d: %q, want %q", size, got.String(), whole.String())
		}
	}
}

// TestJQStringsOnATerminal: --jq prints strings raw for scripts (as jq -r),
// and escaped on a terminal, where only newlines and tabs stay.
func TestJQStringsOnATerminal(t *testing.T) {
	name := "evil\x1b]0;title\x07\x1b[31mred\rover\u202e\u009b2J\nline two\tcol"
	result := map[string]any{"name": name, "obj": map[string]string{"n": name}}
	for _, c := range []struct {
		terminal bool
		want     string
	}{
		{false, name + "\n" + `{"n":"evil\u001b]0;title\u0007\u001b[31mred\rover\u202e\u009b2J\nline two\tcol"}` + "\n"},
		{true, `evil^[]0;title^G^[[31mred\rover\u202e\u009b2J` + "\nline two\tcol\n" + `{"n":"evil\u001b]0;title\u0007\u001b[31mred\rover\u202e\u009b2J\nline two\tcol"}` + "\n"},
	} {
		var buf bytes.Buffer
		if err := Write(&buf, result, Options{JQ: ".name, .obj", Terminal: c.terminal}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("terminal %v:\n got %q\nwant %q", c.terminal, buf.String(), c.want)
		}
	}
}

// FuzzMachineFormatsCarryNoTerminalRunes: any text, as a value and a key,
// prints with no rune a terminal acts on and reads back as encoding/json
// itself reads it back (which makes invalid UTF-8 U+FFFD).
func FuzzMachineFormatsCarryNoTerminalRunes(f *testing.F) {
	for _, s := range []string{"", "plain", "a\u009bb", "\u202e", "x\xc2", "\xe2\x80\xae", "k: v", "- \u2066", "\"\u0085\"", "#\u200f", "'\u061c'", "\n\u009b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in := map[string]any{"v": s, "l": []string{s}, "m": map[string]string{s: s}}
		b, _ := json.Marshal(in)
		var want map[string]any
		json.Unmarshal(b, &want)
		for _, output := range []string{OutputJSON, OutputYAML} {
			var buf bytes.Buffer
			if err := Write(&buf, in, Options{Output: output}); err != nil {
				t.Fatalf("-o %s: %v", output, err)
			}
			if !utf8.Valid(buf.Bytes()) {
				t.Fatalf("-o %s: not UTF-8: %q", output, buf.String())
			}
			if bad := rawTerminalRunes(buf.Bytes()); len(bad) > 0 {
				t.Fatalf("-o %s prints %U raw: %q", output, bad[0], buf.String())
			}
			var got map[string]any
			if err := readBack(output, buf.Bytes(), &got); err != nil {
				t.Fatalf("-o %s does not read back: %v\n%s", output, err, buf.String())
			}
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if !bytes.Equal(gb, wb) {
				t.Fatalf("-o %s reads back as %s, want %s", output, gb, wb)
			}
		}
	})
}
