package commands

import (
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestCompleteLive completes connector and worker names from a kfake
// cluster, through -b typed on the line.
func TestCompleteLive(t *testing.T) {
	t.Parallel() // owns its broker
	c := liveCluster(t)
	stdout, _, code := run(t, "__complete", "-b", c.Bootstrap(), "inspect", "connector", "")
	if code != 0 || stdout != "snk\nsnk-override\nsrc\n" {
		t.Errorf("connectors: exit %d, %q", code, stdout)
	}
	stdout, _, _ = run(t, "__complete", "plan", "leave", "-b", c.Bootstrap(), "--worker", "10.0.0.")
	if stdout != "10.0.0.1:8083\n10.0.0.2:8083\n" {
		t.Errorf("workers: %q", stdout)
	}
	// The command's own flags and the output flags are not passed on.
	stdout, _, _ = run(t, "__complete", "-o", "json", "plan", "connector", "--add", "x=1", "-b", c.Bootstrap(), "--set", "s")
	if stdout != "snk=\nsnk-override=\nsrc=\n" {
		t.Errorf("--set: %q", stdout)
	}
}

// TestCompleteUnreachable: a cluster that does not answer costs a Tab a
// short wait and no candidates, never an error on the terminal.
func TestCompleteUnreachable(t *testing.T) {
	t.Parallel() // owns its broker
	// A listener that accepts and never answers: the worst case.
	silent := kafkatest.SilentListener(t)
	start := time.Now()
	stdout, stderr, code := run(t, "__complete", "-b", silent, "inspect", "connector", "")
	took := time.Since(start)
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if took > cli.CompleteTimeout+2*time.Second {
		t.Errorf("took %s, want about %s", took, cli.CompleteTimeout)
	}
	t.Logf("unreachable cluster: %s", took.Round(time.Millisecond))
}

// TestCompleteOddLines: partial and malformed lines complete to something or
// nothing, never to an error or a panic.
func TestCompleteOddLines(t *testing.T) {
	t.Parallel()
	for _, words := range [][]string{
		{}, {""}, {"-"}, {"--"}, {"---"}, {"--=x"}, {"-o"}, {"-o", "-o", ""}, {"--output="},
		{"nosuch", ""}, {"inspect", "nosuch", ""}, {"inspect", "--", "--", ""}, {"=", ""},
		{"plan", "rolling-restart", "--order", ",,,"}, {"plan", "connector", "--set", "=x"},
		{"help", "help", "help", ""}, {"--from", ""}, {"--from"}, {"completion", "bash", "zsh", ""},
		{"check", "explain", "T1", ""}, {"inspect", "connector", "x", "y", ""},
	} {
		stdout, stderr, code := run(t, append([]string{"__complete"}, words...)...)
		if code != 0 || stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", words, code, stdout, stderr)
		}
	}
}
