package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/connectscope/connectscope/internal/golden"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestCompletionShells sources the generated bash and zsh scripts in the
// real shells and drives their completion functions as the shells would
// (testdata/shell/*.txtar). zsh is needed: CI installs it (apt-get install
// zsh); elsewhere, a machine without zsh skips the zsh half only when CI is
// not set.
func TestCompletionShells(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	_, zshErr := exec.LookPath("zsh")
	if zshErr != nil && os.Getenv("CI") == "true" {
		t.Fatal("zsh is not installed; CI must install it (apt-get install -y zsh) to test the zsh script")
	}
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "shell"),
		UpdateScripts: golden.Update(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			env.Setenv("CONNECTSCOPE_CONFIG", filepath.Join(env.WorkDir, "config.yaml"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "zsh" {
				return zshErr == nil, nil
			}
			return false, nil
		},
	})
}
