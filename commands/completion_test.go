package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"bash": "connectscope.bash", "zsh": "connectscope.zsh",
		"fish": "connectscope.fish", "powershell": "connectscope.ps1",
	}
	for shell, file := range files {
		want, err := os.ReadFile(filepath.Join("..", "completions", file))
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := run(t, "completion", shell)
		if code != 0 || stdout != string(want) {
			t.Errorf("completion %s: exit %d, stderr %q, script differs from completions/%s", shell, code, stderr, file)
		}
		if !strings.Contains(stdout, "__complete") || !strings.Contains(stdout, "connectscope") {
			t.Errorf("completion %s does not ask connectscope for candidates", shell)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		_, stderr, code := run(t, args...)
		if code != 2 || !strings.Contains(stderr, "bash, fish, powershell, zsh") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
