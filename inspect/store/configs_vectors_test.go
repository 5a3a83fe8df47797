package store

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/source"
)

// recVectorDir is the shared vectors folder, relative to this package.
const recVectorDir = "../../../shared/vectors"

// recReadDump parses a kcat -J style dump (one JSON object per line) into
// records, for tests only: the input engineer owns the real parser.
func recReadDump(t testing.TB, path string) []inspect.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer f.Close()
	var out []inspect.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l struct {
			Topic     string  `json:"topic"`
			Partition int32   `json:"partition"`
			Offset    int64   `json:"offset"`
			Ts        int64   `json:"ts"`
			Key       *string `json:"key"`
			Payload   *string `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		r := inspect.Record{Topic: l.Topic, Partition: l.Partition, Offset: l.Offset, Timestamp: l.Ts}
		if l.Key != nil {
			r.Key = []byte(*l.Key)
		}
		if l.Payload != nil {
			r.Value = []byte(*l.Payload)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return out
}

// recVectorRecord is one file of vectors/records/.
type recVectorRecord struct {
	TopicKind  string  `json:"topic_kind"`
	RecordKind string  `json:"record_kind"`
	KeyUTF8    string  `json:"key_utf8"`
	ValueUTF8  *string `json:"value_utf8"`
	Notes      string  `json:"notes"`
	Name       string  `json:"name"`
	KeyHex     string  `json:"key_hex"`
	ValueHex   *string `json:"value_hex"`
}

// recLoadRecordVectors loads every record vector; it fails when there are none.
func recLoadRecordVectors(t testing.TB) []recVectorRecord {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(recVectorDir, "records", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no record vectors under %s (err %v): the shared folder must sit beside the repository", recVectorDir, err)
	}
	var out []recVectorRecord
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v recVectorRecord
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, v)
	}
	return out
}

// record builds the record a vector describes, from its hex bytes.
func (v recVectorRecord) record(t testing.TB, offset int64) inspect.Record {
	t.Helper()
	key, err := hex.DecodeString(v.KeyHex)
	if err != nil {
		t.Fatalf("%s: key_hex: %v", v.Name, err)
	}
	r := inspect.Record{Key: key, Offset: offset}
	if v.ValueHex != nil {
		if r.Value, err = hex.DecodeString(*v.ValueHex); err != nil {
			t.Fatalf("%s: value_hex: %v", v.Name, err)
		}
		if r.Value == nil {
			r.Value = []byte{}
		}
	}
	names := inspect.DefaultTopicNames()
	switch v.TopicKind {
	case "config":
		r.Topic = names.Config
	case "status":
		r.Topic = names.Status
	case "offset":
		r.Topic = names.Offset
	default:
		t.Fatalf("%s: unknown topic_kind %q", v.Name, v.TopicKind)
	}
	return r
}

// recCanonical marshals v and reads it back as generic JSON (numbers kept
// exact), so two models compare independently of field order and spacing.
func recCanonical(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return recParseJSON(t, b)
}

func recParseJSON(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

func recCheckCounts(t testing.TB, name string, c inspect.RecordCounts, problems []inspect.Problem) {
	t.Helper()
	if c.Read != c.Decoded+c.Tombstones+c.Problems {
		t.Errorf("%s: counts do not reconcile: %+v", name, c)
	}
	if problems == nil {
		t.Errorf("%s: problems is nil, want a list", name)
	}
	if c.Problems != len(problems) {
		t.Errorf("%s: %d problems counted, %d listed", name, c.Problems, len(problems))
	}
}

// TestReplayVectors checks every public replay dump builds exactly the
// models Kafka's own readers built.
func TestReplayVectors(t *testing.T) {
	dumps, err := filepath.Glob(filepath.Join(recVectorDir, "replay", "public", "*.jsonl"))
	if err != nil || len(dumps) == 0 {
		t.Fatalf("no replay vectors under %s/replay/public (err %v)", recVectorDir, err)
	}
	passed := 0
	for _, dump := range dumps {
		name := strings.TrimSuffix(filepath.Base(dump), ".jsonl")
		ok := t.Run(name, func(t *testing.T) {
			records := recReadDump(t, dump)
			config, status, offsets, unknown := SplitTopics(records, inspect.DefaultTopicNames())
			if len(unknown) != 0 || len(offsets) != 0 {
				t.Fatalf("split: %d unknown, %d offsets records", len(unknown), len(offsets))
			}
			if len(config)+len(status) != len(records) {
				t.Fatalf("split lost records")
			}
			for _, show := range []bool{false, true} {
				opts := DecodeOptions{ShowSecrets: show}
				cfg := DecodeConfigs(config, opts)
				recCompareModel(t, name+".configs", cfg, cfg.Records, cfg.Problems, len(config),
					filepath.Join(filepath.Dir(dump), name+".configs.expected.json"))
				st := DecodeStatus(status, opts)
				recCompareModel(t, name+".status", st, st.Records, st.Problems, len(status),
					filepath.Join(filepath.Dir(dump), name+".status.expected.json"))
			}
			recSameThroughReadKcat(t, dump, config, status)
		})
		if ok {
			passed++
		}
	}
	t.Logf("replay vectors passing: %d of %d", passed, len(dumps))
}

// recSameThroughReadKcat: the project's own dump reader (ReadKcat) feeds the
// decoders the same records as the test helper, so `inspect configs/status
// --from dump` builds the same models.
func recSameThroughReadKcat(t *testing.T, dump string, config, status []inspect.Record) {
	t.Helper()
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := source.ReadKcat(f, inspect.DefaultTopicNames())
	if err != nil || len(ds.Problems) != 0 {
		t.Fatalf("ReadKcat: %v %+v", err, ds.Problems)
	}
	c2, s2, _, _ := SplitTopics(ds.Records, ds.Topics)
	if !reflect.DeepEqual(recCanonical(t, DecodeConfigs(c2, DecodeOptions{})), recCanonical(t, DecodeConfigs(config, DecodeOptions{}))) ||
		!reflect.DeepEqual(recCanonical(t, DecodeStatus(s2, DecodeOptions{})), recCanonical(t, DecodeStatus(status, DecodeOptions{}))) {
		t.Errorf("models built from ReadKcat's records differ")
	}
}

func recCompareModel(t *testing.T, name string, result any, counts inspect.RecordCounts, problems []inspect.Problem, read int, expectedPath string) {
	t.Helper()
	want, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatalf("reading expected model: %v", err)
	}
	got := recCanonical(t, result).(map[string]any)
	if _, ok := got["records"]; !ok {
		t.Errorf("%s: result has no records block", name)
	}
	if _, ok := got["problems"]; !ok {
		t.Errorf("%s: result has no problems list", name)
	}
	delete(got, "records")
	delete(got, "problems")
	if exp := recParseJSON(t, want); !reflect.DeepEqual(got, exp) {
		gb, _ := json.MarshalIndent(got, "", "  ")
		eb, _ := json.MarshalIndent(exp, "", "  ")
		t.Errorf("%s: model differs\n--- got\n%s\n--- want\n%s", name, gb, eb)
	}
	if len(problems) != 0 {
		t.Errorf("%s: unexpected problems %+v", name, problems)
	}
	recCheckCounts(t, name, counts, problems)
	if counts.Read != read || counts.Tombstones+counts.Decoded != read {
		t.Errorf("%s: counts %+v, want %d read, all decoded or tombstones", name, counts, read)
	}
}
