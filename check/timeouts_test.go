package check

import (
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// do not trigger it, a value set in the file does.
func TestS5NotOnKafkaDefaults(t *testing.T) {
	for text, want := range map[string]bool{
		"": false,
		"task.shutdown.graceful.timeout.ms=6000\n":  true,
		"offset.flush.timeout.ms=4000\n":            true,
		"task.shutdown.graceful.timeout.ms=10000\n": false,
	} {
		rep, err := Timeouts(TimeoutsInput{Workers: []*workerconfig.Config{worker(t, "a.properties", text)}, KafkaVersion: kafkaversion.New(3, 9, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if got := hasRule(rep.Findings, "S5"); got != want {
			t.Errorf("%q: S5 %v, want %v", text, got, want)
		}
	}
}
