package cli

import (
	"bytes"
	"testing"

	urfave "github.com/urfave/cli/v2"
)

// flaggedOptions bind their own flag, as a verb's options do.
type flaggedOptions struct{ Name string }

func (o *flaggedOptions) Flags() []urfave.Flag {
	return []urfave.Flag{&urfave.StringFlag{Name: "name", Destination: &o.Name}}
}

// NewVerb takes the flags from the options (Flagged) and hands the run the
// options they were bound into; a verb refuses arguments it does not read.
func TestNewVerbBindsTheOptionsFlags(t *testing.T) {
	var got *flaggedOptions
	keep := func(_ *Env, o *flaggedOptions) error { got = o; return nil }
	cmd := NewVerb(keep, nil, Command{Name: "verb", Spec: Spec{Offline: true, NoFormat: true}})
	var errb bytes.Buffer
	s := Streams{Out: &bytes.Buffer{}, Err: &errb}
	if code := Exec(cmd, s, "--name", "orders"); code != ExitOK || got == nil || got.Name != "orders" {
		t.Fatalf("exit %d, options %+v: %s", code, got, errb.String())
	}
	if code := Exec(NewVerb(keep, nil, Command{Name: "verb"}), s, "extra"); code != ExitUsage {
		t.Errorf("an argument the verb does not read: exit %d, want %d", code, ExitUsage)
	}
}

// Flags a command gives itself win over the options' own.
func TestVerbFlagsGivenWin(t *testing.T) {
	cmd := Verb(nil, func(*Env, *flaggedOptions) error { return nil }, func(o *flaggedOptions) *Command {
		return &Command{Name: "verb", Flags: []urfave.Flag{&urfave.BoolFlag{Name: "other"}}}
	})
	if len(cmd.Flags) != 1 || cmd.Flags[0].Names()[0] != "other" {
		t.Errorf("flags %v, want only --other", cmd.Flags)
	}
}
