package timeline

import (
	"errors"
	"testing"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/cluster"
)

// A setting given beats the worker file's, which beats the default; a bad
// one is named by its input.
func TestSettingsPrecedence(t *testing.T) {
	state := cluster.State{}
	worker := map[string]string{"scheduled.rebalance.max.delay.ms": "60000", "session.timeout.ms": "45000", "connect.protocol": "COMPATIBLE"}
	opts, err := Settings{Worker: worker, WorkerPath: "w.properties"}.Options(state)
	if err != nil || opts.MaxDelayMs != 60000 || opts.SessionTimeoutMs != 45000 || opts.Protocol != "compatible" {
		t.Fatalf("from the worker file: %+v, %v", opts, err)
	}
	given := int64(1000)
	opts, err = Settings{Worker: worker, MaxDelayMs: &given, Protocol: ProtocolEager}.Options(state)
	if err != nil || opts.MaxDelayMs != 1000 || opts.SessionTimeoutMs != 45000 || opts.Protocol != "eager" {
		t.Fatalf("given: %+v, %v", opts, err)
	}
	opts, err = Settings{}.Options(cluster.State{Protocol: "sessioned"})
	if err != nil || opts.MaxDelayMs != DefaultMaxDelayMs || opts.SessionTimeoutMs != DefaultSessionTimeoutMs || opts.Protocol != "" {
		t.Fatalf("defaults (the group's protocol): %+v, %v", opts, err)
	}
	for input, s := range map[string]Settings{
		"KafkaVersion": {KafkaVersion: kafkaversion.New(2, 2, 0)},
		"JDK":          {JDK: 7},
		"MaxDelay":     {MaxDelayMs: new(int64(1 << 40))},
	} {
		var fe *field.Error
		if _, err := s.Options(state); !errors.As(err, &fe) || fe.Name != input {
			t.Errorf("%s: %v, want an error naming %s", input, err, input)
		}
	}
	for in, want := range map[string]Protocol{"Eager": ProtocolEager, "default": ProtocolDefault, "SESSIONED": ProtocolSessioned, "": ""} {
		if p, err := ParseProtocol(in); err != nil || p != want {
			t.Errorf("ParseProtocol(%q) = %q, %v", in, p, err)
		}
	}
	if _, err := ParseProtocol("cooperative"); !errors.As(err, new(*field.Error)) || err.Error() != `Protocol: want eager, compatible or sessioned, got "cooperative"` {
		t.Errorf("ParseProtocol(cooperative): %v, want an error naming Protocol", err)
	}
	var ws *WorkerSettingError
	if _, err := (Settings{Worker: map[string]string{"session.timeout.ms": "30s"}}).Options(state); !errors.As(err, &ws) || ws.Input != "SessionTimeout" {
		t.Errorf("a worker file's 30s: %v", err)
	}
	// A protocol no plan knows, from the worker file or the group, is named
	// where it came from, and --protocol overrides the group's.
	_, err = Settings{Worker: map[string]string{"connect.protocol": "cooperative"}, WorkerPath: "w.properties"}.Options(state)
	if !errors.As(err, &ws) || ws.Input != "Protocol" || err.Error() != `w.properties: connect.protocol = "cooperative": Kafka takes eager, compatible or sessioned here; fix the file or give Protocol` {
		t.Errorf("a worker file's unknown protocol: %v", err)
	}
	for _, group := range []string{"range", "EAGER", "sessioned2"} {
		var fe *field.Error
		if _, err := (Settings{}).Options(cluster.State{Protocol: group}); !errors.As(err, &fe) || fe.Name != "Protocol" {
			t.Errorf("the group's protocol %q: %v, want an error naming Protocol", group, err)
		}
		if opts, err := (Settings{Protocol: ProtocolEager}).Options(cluster.State{Protocol: group}); err != nil || opts.Protocol != "eager" {
			t.Errorf("the group's protocol %q overridden: %+v, %v", group, opts, err)
		}
	}
}
