package cli

import (
	"errors"
	"fmt"
	"io/fs"
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
