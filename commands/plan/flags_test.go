package plan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/whatif"
)

// --stop arrives as a stop mode, clean unless given; what is none stops at
// the flag with one line naming it (exit 2), before anything is read.
func TestStopFlagTyped(t *testing.T) {
	var got *LeaveOptions
	keep := func(_ *cli.Env, o *LeaveOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdLeave(keep), s, "--worker", "w1"); code != 0 || got.Stop != whatif.StopClean {
		t.Fatalf("default: exit %d, %+v", code, got)
	}
	if code := cli.Exec(NewCmdLeave(keep), s, "--worker", "w1", "--stop", "crash"); code != 0 || got.Stop != whatif.StopCrash {
		t.Fatalf("--stop crash: exit %d, %+v", code, got)
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdLeave(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--worker", "w1", "--stop", "kill")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), `connectscope: --stop: must be clean or crash, got "kill"`) || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("--stop kill: exit %d, %q", code, errb.String())
	}
}

// advise's --stop is a list of stop modes, any case.
func TestAdviseStopsFlag(t *testing.T) {
	var got *AdviseOptions
	keep := func(_ *cli.Env, o *AdviseOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdAdvise(keep), s, "--restart-time", "90s", "--stop", "clean, CRASH"); code != 0 || !reflect.DeepEqual(got.Stops, []whatif.Stop{whatif.StopClean, whatif.StopCrash}) {
		t.Fatalf("exit %d, %+v", code, got)
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdAdvise(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--restart-time", "90s", "--stop", "clean,kill")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), `connectscope: --stop: want clean or crash, got "kill"`) {
		t.Errorf("--stop clean,kill: exit %d, %q", code, errb.String())
	}
}
