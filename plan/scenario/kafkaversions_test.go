package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// TestKafkaVersionRegressions replays the scenarios of testdata/kafka-versions,
// each of which once showed a version profile disagreeing with that release's
// own assignor, and requires the output Kafka's classes gave
// (NAME.VERSION.expected.json, written by e2e/assignordiff's driver),
// piece names included.
func TestKafkaVersionRegressions(t *testing.T) {
	expected, err := filepath.Glob(filepath.Join("testdata", "kafka-versions", "*.expected.json"))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no expected outputs in testdata/kafka-versions (err %v)", err)
	}
	for _, exp := range expected {
		base := strings.TrimSuffix(filepath.Base(exp), ".expected.json")
		dot := strings.Index(base, ".")
		name, version := base[:dot], base[dot+1:]
		t.Run(name+"/"+version, func(t *testing.T) {
			sc, err := os.ReadFile(filepath.Join("testdata", "kafka-versions", name+".scenario.json"))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(exp)
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("%s: %v", exp, err)
			}
			got := replayToGeneric(t, sc, ReplayOptions{KafkaVersion: mustVersion(t, version)})
			if g, w := countsView(got), countsView(want); g != w {
				t.Fatalf("--kafka-version %s: counts differ from Kafka %s's assignor\n%s", version, version, firstDiff(g, w))
			}
			if !reflect.DeepEqual(got, want) {
				gj, _ := json.MarshalIndent(got, "", " ")
				wj, _ := json.MarshalIndent(want, "", " ")
				t.Errorf("--kafka-version %s: piece names differ from Kafka %s's assignor\n%s", version, version, firstDiff(string(gj), string(wj)))
			}
		})
	}
}

// mustVersion is v parsed as --kafka-version parses it.
func mustVersion(t testing.TB, v string) kafkaversion.Version {
	t.Helper()
	kv, err := kafkaversion.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}
