// Package completions holds connectscope's shell completion scripts. They
// are plain files so they can be read and shipped as they are; the binary
// embeds them for `connectscope completion SHELL`.
package completions

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

//go:embed connectscope.bash connectscope.zsh connectscope.fish connectscope.ps1
var scripts embed.FS

var files = map[string]string{
	"bash":       "connectscope.bash",
	"zsh":        "connectscope.zsh",
	"fish":       "connectscope.fish",
	"powershell": "connectscope.ps1",
}

// Shells lists the shells with a script, sorted.
func Shells() []string {
	out := make([]string, 0, len(files))
	for s := range files {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Script returns the completion script for shell.
func Script(shell string) ([]byte, error) {
	name, ok := files[shell]
	if !ok {
		return nil, fmt.Errorf("no completion script for shell %q", shell)
	}
	return scripts.ReadFile(name)
}

// WriteCandidates prints what `__complete` answers: one candidate a line.
// An empty candidate, or one holding a control character (a newline would make it two,
// an escape sequence would reach the terminal) cannot be offered as
// itself, so it is left out; every other one is written as it is, and the
// scripts insert it as one literal word.
func WriteCandidates(w io.Writer, candidates []string) error {
	bw := bufio.NewWriter(w)
	for _, c := range candidates {
		if !Offerable(c) {
			continue
		}
		bw.WriteString(c)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Offerable says whether a name can be a candidate: not empty, UTF-8,
// without control characters or the marks that reorder text (a shell's
// menu shows candidates as they are, so "\u202egpj.exe" would display as
// another name).
func Offerable(name string) bool {
	return name != "" && utf8.ValidString(name) && strings.IndexFunc(name, isControl) < 0
}

// isControl is a C0 or C1 control, DEL, a bidi override, isolate or
// direction mark (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C) or a
// line or paragraph separator (U+2028, U+2029): the set
// format.EscapeTerminal escapes.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c || r == 0x2028 || r == 0x2029
}
