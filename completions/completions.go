// Package completions holds connectscope's shell completion scripts. They
// are plain files so they can be read and shipped as they are; the binary
// embeds them for `connectscope completion SHELL`.
package completions

import (
	"embed"
	"fmt"
	"sort"
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
