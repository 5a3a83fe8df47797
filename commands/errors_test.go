package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/urfave/cli/v2"
)

func TestExitStatus(t *testing.T) {
	cases := []struct {
		err   error
		code  int
		usage bool
	}{
		{nil, 0, false},
		{Exit(ExitFindings, errors.New("2 findings at or above error")), 1, false},
		{UsageErrorf("bad"), 2, true},
		{InputError(errors.New("unreachable")), 3, false},
		{fmt.Errorf("wrapped: %w", &format.UsageError{Flag: "--jq", Problem: "x"}), 2, true},
		{cli.Exit("No help topic for 'x'", 3), 2, true},
		{cli.Exit("custom", 1), 1, false},
		{fmt.Errorf("reading x: %w", fs.ErrNotExist), 3, false},
		{errors.New("Required flag \"add\" not set"), 2, true},
		{errors.New("something else failed"), 3, false},
	}
	for _, c := range cases {
		code, usage := exitStatus(c.err)
		if code != c.code || usage != c.usage {
			t.Errorf("exitStatus(%v) = %d, %v; want %d, %v", c.err, code, usage, c.code, c.usage)
		}
	}
	if Exit(2, nil) != nil {
		t.Error("Exit(code, nil) must stay nil")
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"from", "fron", 1}, {"status", "statsu", 2}, {"", "abc", 3}, {"output", "output", 0}, {"kitten", "sitting", 3}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	if closeEnough("members", "xyz") {
		t.Error("members is no suggestion for xyz")
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("first\n  second\n"); got != "first second" {
		t.Errorf("oneLine = %q", got)
	}
}

func TestMainErrors(t *testing.T) {
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

func TestInterrupt(t *testing.T) {
	stdout, stderr, code := run(t, "probe", "interrupt")
	if code != ExitInterrupted || stderr != "connectscope: interrupted\n" || stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}
