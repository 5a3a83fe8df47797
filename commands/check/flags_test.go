package check

import (
	"bytes"
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
