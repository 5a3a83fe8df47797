package check

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// The shared check flags arrive typed: --fail-on as a severity (error when
// not given), --kafka-version as a version; a bad value stops at the flag.
func TestCheckFlagsTyped(t *testing.T) {
	var got *TopicsOptions
	keep := func(_ *cli.Env, o *TopicsOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdTopics(keep), s); code != 0 || got.FailOn != check.Error {
		t.Fatalf("defaults: exit %d, %+v", code, got)
	}
	if code := cli.Exec(NewCmdTopics(keep), s, "--fail-on", "warn", "--kafka-version", "3.6"); code != 0 || got.FailOn != check.Warn || got.KafkaVersion != kafkaversion.New(3, 6, 0) {
		t.Fatalf("given: exit %d, %+v", code, got)
	}
	for _, bad := range [][]string{{"--fail-on", "fatal"}, {"--kafka-version", "three"}} {
		if code := cli.Exec(NewCmdTopics(keep), s, bad...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, cli.ExitUsage)
		}
	}
}

// --to arrives as a release; what is not one (empty, below 4.0, a 4.N past
// the newest 4.x such as 4.10) stops at the flag with one line naming it.
func TestUpgradeToFlag(t *testing.T) {
	var got *UpgradeOptions
	keep := func(_ *cli.Env, o *UpgradeOptions) error { got = o; return nil }
	for in, want := range map[string]kafkaversion.Version{"4.x": kafkaversion.New(4, 4, 0), "4.1": kafkaversion.New(4, 1, 0), "5.0": kafkaversion.New(5, 0, 0)} {
		var errb bytes.Buffer
		if code := cli.Exec(NewCmdUpgrade(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--to", in); code != 0 || got.To != want {
			t.Errorf("--to %s: exit %d, %+v %s", in, code, got.To, errb.String())
		}
	}
	for _, bad := range []string{"", "4.10", "4.5", "3.9", "four"} {
		var errb bytes.Buffer
		code := cli.Exec(NewCmdUpgrade(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--to", bad)
		want := fmt.Sprintf("connectscope: --to %q: want 4.x, a 4.N release (4.0 … 4.4) or 5.0 (see ", bad)
		if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("--to %q: exit %d, stderr %q; want exit %d, %q", bad, code, errb.String(), cli.ExitUsage, want)
		}
	}
}

// --target arrives as a protocol (sessioned unless given, any case); what
// is none stops at the flag with one line naming it.
func TestTargetFlagTyped(t *testing.T) {
	var got *UpgradeOptions
	keep := func(_ *cli.Env, o *UpgradeOptions) error { got = o; return nil }
	s := cli.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if code := cli.Exec(NewCmdUpgrade(keep), s); code != 0 || got.Target != "sessioned" {
		t.Fatalf("default: exit %d, %+v", code, got)
	}
	if code := cli.Exec(NewCmdUpgrade(keep), s, "--target", "COMPATIBLE"); code != 0 || got.Target != "compatible" {
		t.Fatalf("--target COMPATIBLE: exit %d, %+v", code, got)
	}
	var errb bytes.Buffer
	code := cli.Exec(NewCmdUpgrade(keep), cli.Streams{Out: &bytes.Buffer{}, Err: &errb}, "--target", "cooperative")
	if code != cli.ExitUsage || !strings.HasPrefix(errb.String(), `connectscope: --target "cooperative": use eager, compatible or sessioned`) || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("--target cooperative: exit %d, %q", code, errb.String())
	}
}
