package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/runbook"
)

// scriptBinary is this test binary acting as connectscope, as TestMain puts
// it on PATH for the scripts: building the command again costs a link.
func scriptBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("connectscope")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "version").Output(); err != nil || !strings.Contains(string(out), "v0.0.0-script") {
		t.Fatalf("%s is not the test binary acting as connectscope: %v %s", bin, err, out)
	}
	return bin
}

// runRunbook runs the README's runbook (examples/runbook) against the
// sandbox at bootstrap.
func runRunbook(t *testing.T, bin, bootstrap string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runbook.Run(t, bin, append([]string{"CONNECTSCOPE_BOOTSTRAP_SERVER=" + bootstrap, "CONNECTSCOPE_TIMEOUT=20s", "RESTART_TIME=5s"}, env...)...)
}

// The runbook against the sandbox: 0 on a healthy cluster (the test
// cluster's replication-factor findings waived), 1 when the plan breaks a
// gate or a finding is not waived (an expired waiver, a failed task), 2 on
// a jq error, never a pass by accident.
func TestRunbookOnSandbox(t *testing.T) {
	t.Parallel()
	bin := scriptBinary(t)
	ctx, c := testSandbox(t)
	seedSandbox(t, ctx, c)
	b := c.Bootstrap()

	out, stderr, code := runRunbook(t, bin, b)
	if code != 0 || !strings.Contains(out, "restart in this order: worker-") || strings.Count(out, " tasks (") != 3 {
		t.Fatalf("healthy: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}

	_, stderr, code = runRunbook(t, bin, b, "MAX_OUTAGE=1s")
	if code != 1 || !strings.Contains(stderr, "exceeds --max-outage 1s") || !strings.Contains(stderr, "gate: the rolling restart breaks a gate") {
		t.Errorf("plan gate: exit %d, stderr %s", code, stderr)
	}

	_, stderr, code = runRunbook(t, bin, b, "MAX_MOVES=0")
	if code != 1 || !strings.Contains(stderr, "exceeds --max-moves 0") {
		t.Errorf("moves gate: exit %d, stderr %s", code, stderr)
	}

	_, stderr, code = runRunbook(t, bin, b, "REPORT=.rule +")
	if code != 2 || !strings.Contains(stderr, "--jq: unexpected EOF") || !strings.Contains(stderr, "runbook: check all failed with exit status 2") {
		t.Errorf("jq error: exit %d, stderr %s", code, stderr)
	}
	expired := filepath.Join(t.TempDir(), "waivers.yaml")
	if err := os.WriteFile(expired, []byte("- rule: K5\n  subject: topic connect-*\n  reason: one broker\n  expires: 2020-01-31\n- rule: K13\n  reason: one broker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runRunbook(t, bin, b, "WAIVERS="+expired, "STAGE=canary")
	if code != 1 || !strings.Contains(out, "canary: warn W1 waiver "+expired+":1") || !strings.Contains(out, "canary: warn K5 topic connect-configs") {
		t.Errorf("expired waiver: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
	// A jq error while findings are printed is 2, not a failed gate or a pass.
	_, stderr, code = runRunbook(t, bin, b, "WAIVERS="+expired, "REPORT=.rule + 1")
	if code != 2 || !strings.Contains(stderr, "cannot add") || !strings.Contains(stderr, "nothing was decided") {
		t.Errorf("jq run-time error: exit %d, stderr %s", code, stderr)
	}

	if err := c.FailTask(ctx, c.Connectors()[0].Name, 0); err != nil {
		t.Fatal(err)
	}
	// The owner writes the FAILED status from its own loop: wait for it,
	// or the runbook may read the topic first (seen once in CI under load).
	if err := c.WaitStable(ctx); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runRunbook(t, bin, b)
	if code != 1 || !strings.Contains(out, "warn B8 task ") || !strings.Contains(stderr, "gate: findings at or above warn") {
		t.Errorf("failed task: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
}

// The README's runbook section is the script and its waiver file, word for
// word.
func TestREADMERunbookIsTheScript(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{runbook.Script(t), filepath.Join(filepath.Dir(runbook.Script(t)), "waivers.yaml")} {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lang := "```sh\n"
		if strings.HasSuffix(f, ".yaml") {
			lang = "```yaml\n"
		}
		if !strings.Contains(string(readme), lang+string(body)+"```\n") {
			t.Errorf("README.md does not show %s whole in a %s block", f, strings.TrimSpace(strings.Trim(lang, "`")))
		}
	}
}
