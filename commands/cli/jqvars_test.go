package cli

import (
	"bytes"
	"strings"
	"testing"
)

// --arg and --argjson feed only the --jq expression: without it they are
// refused with one line naming the flag and the fix, never dropped.
func TestJQVarsNeedJQ(t *testing.T) {
	var got Globals
	verb := func() *Command {
		return &Command{Name: "verb", Run: func(e *Env) error { got = e.Globals; return nil }}
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--arg", "n", "v"}, "--arg"},
		{[]string{"--argjson", "n", "1"}, "--argjson"},
		{[]string{"--arg", "n=v", "--argjson", "m=1"}, "--arg"},
	} {
		var errb bytes.Buffer
		code := Exec(verb(), Streams{Out: &bytes.Buffer{}, Err: &errb}, c.args...)
		want := "connectscope: " + c.flag + " gives a value to the --jq expression only: add --jq EXPRESSION, or drop " + c.flag + " (see 'connectscope verb --help')\n"
		if code != ExitUsage || errb.String() != want {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, %q", c.args, code, errb.String(), ExitUsage, want)
		}
	}
	var errb bytes.Buffer
	if code := Exec(verb(), Streams{Out: &bytes.Buffer{}, Err: &errb}, "--arg", "n", "v", "--jq", "$n"); code != 0 || len(got.JQVars) != 1 {
		t.Errorf("with --jq: exit %d, %d variables, %s", code, len(got.JQVars), strings.TrimSpace(errb.String()))
	}
}
