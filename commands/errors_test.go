package commands

import (
	"strings"
	"testing"
)

func TestMainErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		code int
		line string
	}{
		{[]string{"nosuch"}, 2, `connectscope: unknown command "nosuch": use one of `},
		{[]string{"inspect", "nosuch"}, 2, `connectscope: unknown command "nosuch": use one of configs, status, offsets, connectors, members`},
		{[]string{"help", "nosuch"}, 2, `connectscope: No help topic for 'nosuch'`},
		{[]string{"--bogus"}, 2, `connectscope: flag provided but not defined: -bogus (see 'connectscope --help')`},
		{[]string{"inspect", "configs", "--bogus"}, 2, `connectscope: flag provided but not defined: -bogus (see 'connectscope inspect configs --help')`},
		{[]string{"inspect", "configs"}, 2, `connectscope: nothing to read: give --from FILE`},
		{[]string{"inspect", "configs", "extra"}, 2, `connectscope: unexpected argument "extra"`},
		{[]string{"inspect", "status", "--from", "/no/such/dump.jsonl"}, 3, `connectscope: reading /no/such/dump.jsonl`},
		{[]string{"version", "-o", "json", "--jq", ".version | nosuch"}, 2, `connectscope: --jq: function not defined: nosuch/0`},
		{[]string{"inspect", "status", "--fron", "x"}, 2, `connectscope: flag provided but not defined: -fron; did you mean --from? (see 'connectscope inspect status --help')`},
		// A value refused at its flag points at the verb's help, as every usage error does.
		{[]string{"plan", "join", "--add", "1", "--protocol", "cooperative"}, 2, `connectscope: --protocol: want eager, compatible or sessioned, got "cooperative" (see 'connectscope plan join --help')`},
		{[]string{"plan", "advise", "--restart-time", "90s", "--pacing", "Fast"}, 2, `connectscope: --pacing: want back, stable or gap, got "fast" (see 'connectscope plan advise --help')`},
		{[]string{"check", "topics", "--fail-on", "x"}, 2, `connectscope: --fail-on "x": use error, warn or info (see 'connectscope check topics --help')`},
		{[]string{"inspect", "statsu"}, 2, `connectscope: unknown command "statsu"; did you mean "status"? (see 'connectscope inspect --help')`},
	}
	for _, c := range cases {
		stdout, stderr, code := run(t, c.args...)
		if code != c.code || !strings.HasPrefix(stderr, c.line) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, %q", c.args, code, stderr, c.code, c.line)
		}
		if strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: stderr should be one line: %q", c.args, stderr)
		}
		if stdout != "" {
			t.Errorf("%v: nothing belongs on stdout after an error: %q", c.args, stdout)
		}
	}
}

func TestHelpGoesToStdout(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, "inspect", "--help")
	if code != 0 || stderr != "" || !strings.Contains(stdout, "configs") {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	// A command's help shows its own flags and points at the global ones,
	// which `connectscope options` lists.
	stdout, _, _ = run(t, "inspect", "configs", "--help")
	for _, want := range []string{"--connector NAME", "'connectscope options'", "-o table|wide|json|jsonl|yaml|schema"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("inspect configs --help lacks %q", want)
		}
	}
	stdout, _, _ = run(t, "options")
	for _, want := range []string{"--from FILE", "[$CONNECTSCOPE_FROM]", "-o, --output FORMAT", "[$CONNECTSCOPE_BOOTSTRAP_SERVER]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("options lacks %q", want)
		}
	}
}

// Not parallel: it sends SIGINT to the whole test process.
func TestInterrupt(t *testing.T) {
	stdout, stderr, code := run(t, "probe", "interrupt")
	if code != ExitInterrupted || stderr != "connectscope: interrupted\n" || stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}
