package cli

import (
	"bytes"
	"runtime/debug"
	"testing"
)

// A command that asks for the sweep's GC target runs under it, and the
// process gets its own back when the run ends.
func TestSweepMemoryAppliedAndRestored(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	during := 0
	var out, errs bytes.Buffer
	app := NewApp(App{Streams: Streams{Out: &out, Err: &errs}, Tree: func() []*Command {
		return []*Command{{Name: "sweep", Usage: "asks for the sweep's GC target", Spec: Spec{NoGlobals: true}, Run: func(e *Env) error {
			e.SweepMemory()
			during = debug.SetGCPercent(-1)
			debug.SetGCPercent(during)
			return nil
		}}}
	}})
	if code := Run(app, []string{"connectscope", "sweep"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if during != sweepGCPercent {
		t.Errorf("GC percent during the sweep %d, want %d (%s%s)", during, sweepGCPercent, out.String(), errs.String())
	}
	if after := debug.SetGCPercent(100); after != 100 {
		t.Errorf("GC percent after the run %d, want 100 again", after)
	}
}
