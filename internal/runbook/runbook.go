// Package runbook runs the example runbook (examples/runbook) with a built
// connectscope binary, for the tests that run it against the sandbox and
// against real Kafka. Test support only.
package runbook

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the repository's root, from this file's place in it.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runbook: cannot find the repository")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Script is the runbook the README shows.
func Script(t testing.TB) string {
	return filepath.Join(repoRoot(t), "examples", "runbook", "gate-rolling-restart.sh")
}

// Binary builds connectscope into a temporary directory.
func Binary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "connectscope")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/connectscope")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building connectscope: %v: %s", err, out)
	}
	return bin
}

// Run runs the runbook with bin in a clean environment (none of the
// caller's CONNECTSCOPE_* variables, no named-cluster file) plus env, and
// returns its output and exit status.
func Run(t testing.TB, bin string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("sh", Script(t))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONNECTSCOPE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "CONNECTSCOPE="+bin, "CONNECTSCOPE_CONFIG="+filepath.Join(t.TempDir(), "none.yaml"))
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running the runbook: %v", err)
	}
	return out.String(), errb.String(), code
}
