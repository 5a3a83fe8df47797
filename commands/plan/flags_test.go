package plan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/timeline"
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

// --pace arrives in milliseconds (0, all at once, when not given); a value
// that is no duration stops at the flag.
func TestPaceFlagTyped(t *testing.T) {
	var got *JoinOptions
	keep := func(_ *cli.Env, o *JoinOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	for args, want := range map[string]int64{"": 0, "30s": 30000, "1500": 1500} {
		in := []string{"--add", "1"}
		if args != "" {
			in = append(in, "--pace", args)
		}
		if code := cli.Exec(NewCmdJoin(keep), s, in...); code != 0 || got.PaceMs != want {
			t.Errorf("--pace %q: exit %d, %+v", args, code, got)
		}
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdJoin(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--add", "1", "--pace", "-5s")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), "connectscope: --pace: must not be negative, got -5s") {
		t.Errorf("--pace -5s: exit %d, %q", code, errb.String())
	}
}

// --protocol arrives as a timeline.Protocol, any case, "" unless given; a
// name that is none stops at the flag with the plan's own words (exit 2).
func TestProtocolFlagTyped(t *testing.T) {
	var got *JoinOptions
	keep := func(_ *cli.Env, o *JoinOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	for in, want := range map[string]timeline.Protocol{"": "", "COMPATIBLE": timeline.ProtocolCompatible, "default": timeline.ProtocolDefault} {
		args := []string{"--add", "1"}
		if in != "" {
			args = append(args, "--protocol", in)
		}
		if code := cli.Exec(NewCmdJoin(keep), s, args...); code != 0 || got.Protocol != want {
			t.Errorf("--protocol %q: exit %d, %+v", in, code, got)
		}
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdJoin(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--add", "1", "--protocol", "cooperative")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), `connectscope: --protocol: want eager, compatible or sessioned, got "cooperative"`) {
		t.Errorf("--protocol cooperative: exit %d, %q", code, errb.String())
	}
}

// advise's --pacing is a list of pacing modes, any case, read at the flag.
func TestPacingFlagTyped(t *testing.T) {
	var got *AdviseOptions
	keep := func(_ *cli.Env, o *AdviseOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdAdvise(keep), s, "--restart-time", "90s", "--pacing", "back, STABLE,gap"); code != 0 || !reflect.DeepEqual(got.Pacings, []whatif.PaceMode{whatif.PaceBack, whatif.PaceStable, whatif.PaceGap}) {
		t.Fatalf("exit %d, %+v", code, got)
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdAdvise(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--restart-time", "90s", "--pacing", "back,soon")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), `connectscope: --pacing: want back, stable or gap, got "soon"`) {
		t.Errorf("--pacing back,soon: exit %d, %q", code, errb.String())
	}
}

// The clock flags are the shared cli.Clock group, in milliseconds, nil
// unless given; --round-time is 2s unless given.
func TestPlanClockFlagsTyped(t *testing.T) {
	var got *JoinOptions
	keep := func(_ *cli.Env, o *JoinOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdJoin(keep), s, "--add", "1"); code != 0 || got.MaxDelayMs != nil || got.SessionTimeoutMs != nil || got.HeartbeatMs != nil || got.RoundTimeMs != 2000 {
		t.Fatalf("defaults: exit %d, %+v", code, got)
	}
	code := cli.Exec(NewCmdJoin(keep), s, "--add", "1", "--max-delay", "1m", "--session-timeout", "45000", "--heartbeat-interval", "3s", "--round-time", "500")
	if code != 0 || got.MaxDelayMs == nil || *got.MaxDelayMs != 60000 || *got.SessionTimeoutMs != 45000 || *got.HeartbeatMs != 3000 || got.RoundTimeMs != 500 {
		t.Fatalf("given: exit %d, %+v", code, got)
	}
}
